/* csvfield.h - turning one libcsv field (bytes, not NUL-terminated) into a value. */
#ifndef SA_CSVFIELD_H
#define SA_CSVFIELD_H

#include <stdbool.h>
#include <stddef.h>

/* Longest field a loader accepts; anything longer is an error, not a truncation. */
#define SA_CSV_FIELD_MAX 63

/* Parses the whole of text as a finite plain decimal number (sa_plain_number). Returns 0, or
 * -1 ("", "nan", "1x", "inf", "0x6a", " 1.5", "1.5 ", overflow). */
int sa_csv_field_number(const char *text, double *out);

/* Longest line a loader accepts. libcsv grows a field's buffer in fixed steps, so one huge
 * line would cost quadratic time; lines are measured before parsing instead. */
#define SA_CSV_LINE_MAX 4096

/* Where a loader is, and whether it has failed: the first member of every loader's state, so
 * the shared driver below can report a malformed file at the right line. */
struct sa_csv_pos {
	const char *file;  /* when not NULL, messages start "file line N:" */
	size_t line;   /* 1-based record number being read */
	bool failed;   /* set by the first error; later callbacks do nothing */
	bool nul_free; /* set by the driver: the buffer holds no NUL byte, so no field does */
	char *err;     /* borrowed: where the first error is written */
	size_t errlen;
};

/* Copies field[0..len) into text (size textlen) as a C string. Returns 0, or -1 when the field
 * does not fit or holds a NUL byte (looked for only when pos's buffer has one). A NULL field
 * (libcsv's empty) gives "". */
int sa_csv_field_text(const struct sa_csv_pos *pos, const void *field, size_t len, char *text,
		      size_t textlen);

/* Records the first error as "line N: message" (after the file name, when set); later ones
 * are ignored. */
void sa_csv_fail(struct sa_csv_pos *pos, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Runs libcsv in strict mode over all of buf, after refusing over-long lines; fields keep any
 * spaces around them (libcsv's trimming is off), so a padded value is the loader's to refuse. on_field and on_row
 * get pos as their data (it must be the first member of the loader's state). Returns 0, or -1
 * with the first error in pos->err. */
int sa_csv_parse_all(const char *buf, size_t len, void (*on_field)(void *, size_t, void *),
		     void (*on_row)(int, void *), struct sa_csv_pos *pos);

/* The same with another delimiter than ',' (';' or a tab). */
int sa_csv_parse_delim(const char *buf, size_t len, char delim,
		       void (*on_field)(void *, size_t, void *), void (*on_row)(int, void *),
		       struct sa_csv_pos *pos);

/* Finds the first line of buf[0..len) longer than max bytes. Returns 0 when there is none, else
 * its 1-based line number. */
size_t sa_csv_long_line(const char *buf, size_t len, size_t max);

#endif
