/* csvtable.h - the one reader of a CSV table with a header line, on the shared libcsv driver
 * (csvfield.h): columns found by name, every row as wide as the header, each row handed to a
 * callback while the file streams, so a million rows cost no more memory than one. */
#ifndef SA_CSVTABLE_H
#define SA_CSVTABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "csvfield.h"

#define SA_CSV_TABLE_COLS 32  /* widest header accepted */

struct sa_csv_table {
	struct sa_csv_pos pos;      /* first: the shared driver passes &pos as data */
	/* Set by the caller. want names the columns needed, in the order of vals[]; a missing
	 * one fails the header. With want NULL, every column is kept, vals[k] holding column k. */
	const char *const *want;
	int n_want;
	int (*row)(struct sa_csv_table *tb, void *arg);  /* returns -1 after sa_csv_table_fail */
	void *arg;
	/* Filled by the reader. */
	int cols;                   /* header width: every row must have it */
	char header[SA_CSV_TABLE_COLS][SA_CSV_FIELD_MAX + 1];
	char vals[SA_CSV_TABLE_COLS][SA_CSV_FIELD_MAX + 1];  /* the row's values, as text */
	int where[SA_CSV_TABLE_COLS];  /* header column -> index in vals, or -1 */
	int col;
};

#define sa_csv_table_fail(tb, ...) sa_csv_fail(&(tb)->pos, __VA_ARGS__)

/* Reads buf[0..len): the header, then every row through tb->row. Refuses more than
 * SA_CSV_TABLE_COLS columns, fields over SA_CSV_FIELD_MAX bytes, rows of another width than the
 * header, a wanted column missing and an empty file. Returns 0, or -1 with "file line N: ..."
 * in tb->pos.err. */
int sa_csv_table_parse(struct sa_csv_table *tb, const char *buf, size_t len);

/* vals[w] as a finite number (csvfield.h's rules), or NAN for an empty cell when empty_ok.
 * Returns 0, or -1 after recording "<column> is not a finite number". */
int sa_csv_table_num(struct sa_csv_table *tb, int w, bool empty_ok, double *out);

#endif
