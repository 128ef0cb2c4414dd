/* csvtable.c - a CSV table by column name on the shared libcsv driver (csvtable.h). */
#include <math.h>
#include <string.h>

#include "csvtable.h"

static void header_cell(struct sa_csv_table *tb, const char *name)
{
	memcpy(tb->header[tb->col], name, sizeof tb->header[0]);
	tb->where[tb->col] = tb->want ? -1 : tb->col;
	for (int w = 0; tb->want && w < tb->n_want; w++)
		if (!strcmp(name, tb->want[w]))
			tb->where[tb->col] = w;
}

static void on_field(void *field, size_t len, void *arg)
{
	struct sa_csv_table *tb = arg;
	char text[SA_CSV_FIELD_MAX + 1];

	if (tb->pos.failed)
		return;
	if (tb->col >= SA_CSV_TABLE_COLS)
		return sa_csv_table_fail(tb, "more than %d columns", SA_CSV_TABLE_COLS);
	if (sa_csv_field_text(&tb->pos, field, len, text, sizeof(text)) < 0)
		return sa_csv_table_fail(tb, "a field is longer than %d bytes", SA_CSV_FIELD_MAX);
	if (tb->pos.line == 1)
		header_cell(tb, text);
	else if (tb->col < tb->cols && tb->where[tb->col] >= 0)
		memcpy(tb->vals[tb->where[tb->col]], text, sizeof(text));
	tb->col++;
}

/* The header must name every wanted column. */
static void check_header(struct sa_csv_table *tb)
{
	for (int w = 0; tb->want && w < tb->n_want; w++) {
		bool found = false;

		for (int k = 0; k < tb->col; k++)
			found = found || tb->where[k] == w;
		if (!found)
			return sa_csv_table_fail(tb, "no column '%s'", tb->want[w]);
	}
	tb->cols = tb->col;
}

static void on_row(int c, void *arg)
{
	struct sa_csv_table *tb = arg;

	(void)c;
	if (tb->pos.failed)
		return;
	if (tb->pos.line == 1)
		check_header(tb);
	else if (tb->col != tb->cols)
		/* A ragged row has no reliable column for any of its values. */
		return sa_csv_table_fail(tb, "%d fields where the header has %d", tb->col, tb->cols);
	else
		tb->row(tb, tb->arg);
	memset(tb->vals, 0, sizeof tb->vals[0] * (size_t)(tb->want ? tb->n_want : tb->cols));
	tb->col = 0;
	tb->pos.line++;
}

int sa_csv_table_parse(struct sa_csv_table *tb, const char *buf, size_t len)
{
	tb->pos.line = 1;
	tb->col = tb->cols = 0;
	if (tb->want && (tb->n_want < 0 || tb->n_want > SA_CSV_TABLE_COLS)) {
		sa_csv_table_fail(tb, "cannot want %d columns", tb->n_want);
		return -1;
	}
	if (sa_csv_parse_all(buf, len, on_field, on_row, &tb->pos))
		return -1;
	if (tb->pos.line == 1) {
		sa_csv_table_fail(tb, "the file is empty");
		return -1;
	}
	return 0;
}

int sa_csv_table_num(struct sa_csv_table *tb, int w, bool empty_ok, double *out)
{
	if (empty_ok && !tb->vals[w][0]) {
		*out = NAN;
		return 0;
	}
	if (sa_csv_field_number(tb->vals[w], out) < 0) {
		sa_csv_table_fail(tb, "%s is not a finite number",
				  tb->want ? tb->want[w] : tb->header[w]);
		return -1;
	}
	return 0;
}
