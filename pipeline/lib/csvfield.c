/* csvfield.c - strict conversion of csv fields to text and numbers. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "config.h"
#include "csvfield.h"
#include "msg.h"

int sa_csv_field_text(const void *field, size_t len, char *text, size_t textlen)
{
	if (!field || !len) {
		text[0] = '\0';
		return 0;
	}
	if (len >= textlen || memchr(field, '\0', len))
		return -1;
	memcpy(text, field, len);
	text[len] = '\0';
	return 0;
}

int sa_csv_field_number(const char *text, double *out)
{
	char *end;
	double x;

	/* Plain decimals only: strtod would take " 1.5" and "0x6a" without a word. */
	if (!sa_plain_number(text))
		return -1;
	errno = 0;
	x = strtod(text, &end);
	if (*end || errno == ERANGE || !isfinite(x))
		return -1;
	*out = x;
	return 0;
}

size_t sa_csv_long_line(const char *buf, size_t len, size_t max)
{
	size_t line = 1;

	while (len) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;

		if (n > max)
			return line;
		if (!nl)
			break;
		buf = nl + 1;
		len -= n + 1;
		line++;
	}
	return 0;
}

void sa_csv_fail(struct sa_csv_pos *pos, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if (pos->failed)
		return;
	pos->failed = true;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	sa_fmt(pos->err, pos->errlen, "%s%sline %zu: %s", pos->file ? pos->file : "",
	       pos->file ? " " : "", pos->line, what);
}

/* libcsv trims spaces and tabs around unquoted fields by default, which would turn " 1.5"
 * into "1.5" before any loader saw it: nothing counts as space, so padding is refused. */
static int no_space(unsigned char c)
{
	(void)c;
	return 0;
}

int sa_csv_parse_all(const char *buf, size_t len, void (*on_field)(void *, size_t, void *),
		     void (*on_row)(int, void *), struct sa_csv_pos *pos)
{
	return sa_csv_parse_delim(buf, len, ',', on_field, on_row, pos);
}

int sa_csv_parse_delim(const char *buf, size_t len, char delim,
		       void (*on_field)(void *, size_t, void *), void (*on_row)(int, void *),
		       struct sa_csv_pos *pos)
{
	struct csv_parser p;
	size_t long_line = sa_csv_long_line(buf, len, SA_CSV_LINE_MAX);

	if (long_line) {
		pos->line = long_line;
		sa_csv_fail(pos, "longer than %d bytes; not a csv this tool reads", SA_CSV_LINE_MAX);
		return -1;
	}
	if (csv_init(&p, CSV_STRICT | CSV_EMPTY_IS_NULL) != 0) {
		sa_fmt(pos->err, pos->errlen, "cannot start the csv parser");
		pos->failed = true;
		return -1;
	}
	csv_set_delim(&p, (unsigned char)delim);
	/* The callback costs a call per character: a file without a space or a tab (every file
	 * this tool writes) keeps libcsv's inline test, which then trims nothing either. */
	if (memchr(buf, ' ', len) || memchr(buf, '\t', len))
		csv_set_space_func(&p, no_space);
	if (csv_parse(&p, buf, len, on_field, on_row, pos) != len || csv_fini(&p, on_field, on_row, pos))
		sa_csv_fail(pos, "malformed csv (%s)", csv_strerror(csv_error(&p)));
	csv_free(&p);
	return pos->failed ? -1 : 0;
}
