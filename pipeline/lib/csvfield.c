/* csvfield.c - strict conversion of csv fields to text and numbers. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csvfield.h"

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

	if (!*text)
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
