/* csvfield.c - strict conversion of csv fields to text and numbers. */
#include <errno.h>
#include <float.h>
#include <stdint.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "config.h"
#include "csvfield.h"
#include "msg.h"

int sa_csv_field_text(const struct sa_csv_pos *pos, const void *field, size_t len, char *text,
		      size_t textlen)
{
	if (!field || !len) {
		text[0] = '\0';
		return 0;
	}
	if (len >= textlen || (!pos->nul_free && memchr(field, '\0', len)))
		return -1;
	memcpy(text, field, len);
	text[len] = '\0';
	return 0;
}

/* The plain decimal grammar, [+-]digits[.digits][(e|E)[+-]digits] with a digit on one side of
 * the point, scanned once. On success *m holds the first 19 significant digits, *exp10 the
 * power of ten that scales them and *exact whether no digit was left out of *m. */
static int scan_decimal(const char *s, uint64_t *m, int *exp10, bool *exact, bool *negative)
{
	uint64_t v = 0;
	int digits = 0, dropped = 0, scale = 0, e = 0, esign = 1;
	bool any = false;

	*negative = *s == '-';
	if (*s == '-' || *s == '+')
		s++;
	for (; *s >= '0' && *s <= '9'; s++, any = true) {
		if (digits < 19) {
			v = v * 10 + (uint64_t)(*s - '0');
			digits += v != 0;
		} else {
			dropped++;
		}
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, any = true) {
			if (digits < 19) {
				v = v * 10 + (uint64_t)(*s - '0');
				digits += v != 0;
				scale--;
			} else {
				dropped += *s != '0';
			}
		}
	}
	if (!any)
		return -1;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '-' || *s == '+')
			esign = *s++ == '-' ? -1 : 1;
		if (!(*s >= '0' && *s <= '9'))
			return -1;
		for (; *s >= '0' && *s <= '9'; s++)
			if (e < 100000)
				e = e * 10 + (*s - '0');
	}
	if (*s)
		return -1;
	*m = v;
	*exp10 = scale + esign * e;
	*exact = dropped == 0;
	return 0;
}

int sa_csv_field_number(const char *text, double *out)
{
	/* Powers of ten that a double holds exactly. */
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
					1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
					1e20, 1e21, 1e22 };
	uint64_t m;
	int e;
	bool exact, negative;
	char *end;
	double x;

	/* Plain decimals only: strtod would take " 1.5", "0x6a" and "inf" without a word. */
	if (scan_decimal(text, &m, &e, &exact, &negative))
		return -1;
#if FLT_EVAL_METHOD == 0
	/* Clinger's fast path: an integer up to 2^53 and a power of ten up to 1e22 are both exact,
	 * so one multiplication or division is the correctly rounded value, as strtod's is.
	 * Anything else (long mantissas, large exponents) goes to strtod. */
	if (exact && m <= (UINT64_C(1) << 53) && e >= -22 && e <= 22) {
		x = e >= 0 ? (double)m * pow10[e] : (double)m / pow10[-e];
		*out = negative ? -x : x;
		return 0;
	}
#endif
	errno = 0;
	x = strtod(text, &end);
	if (*end || errno == ERANGE || !isfinite(x))
		return -1;
	*out = x;
	return 0;
}

size_t sa_csv_long_line(const char *buf, size_t len, size_t max)
{
	size_t at = 0, line = 1;

	/* From a line's start, every line that starts before the last newline within the next
	 * max + 1 bytes ends by it, so the scan jumps a window at a time; none means a long line. */
	while (len - at > max) {
		const char *nl = memrchr(buf + at, '\n', max + 1);

		if (!nl)
			break;
		at = (size_t)(nl - buf) + 1;
	}
	if (len - at <= max)
		return 0;
	for (const char *p = buf; (p = memchr(p, '\n', at - (size_t)(p - buf))); p++)
		line++;
	return line;
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
		/* counted from the buffer's start, which is the caller's line pos->line */
		pos->line = long_line + (pos->line ? pos->line - 1 : 0);
		sa_csv_fail(pos, "longer than %d bytes; not a csv this tool reads", SA_CSV_LINE_MAX);
		return -1;
	}
	/* One scan of the whole buffer instead of one per field. */
	pos->nul_free = !memchr(buf, '\0', len);
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
