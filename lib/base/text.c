/* text.c - UTF-8 validation and escaping of hostile text for HTML and CSV. */
#include <stdint.h>
#include <string.h>

#include "text.h"

/* Length of the UTF-8 sequence at s (at most n bytes), or 0 if it is not well-formed
 * (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF). */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2, cp = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		len = 3, cp = c & 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

bool sa_utf8_valid(const char *buf, size_t len, int *bad_line)
{
	const unsigned char *s = (const unsigned char *)buf;
	int line = 1;

	for (size_t i = 0; i < len;) {
		size_t k = utf8_seq(s + i, len - i);

		if (!k) {
			if (bad_line)
				*bad_line = line;
			return false;
		}
		if (s[i] == '\n')
			line++;
		i += k;
	}
	return true;
}

void sa_html_escape(FILE *fp, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&#39;", fp); break;
		default: fputc(*s, fp); break;
		}
	}
}

bool sa_is_formula_like(const char *s)
{
	if (!s)
		return false;
	while (*s == '\t' || *s == '\r' || *s == ' ')
		s++;
	return *s == '=' || *s == '+' || *s == '-' || *s == '@';
}

void sa_csv_write_text(FILE *fp, const char *s)
{
	bool quote = sa_is_formula_like(s) || strpbrk(s ? s : "", ",\"\r\n") != NULL;

	if (!quote) {
		fputs(s ? s : "", fp);
		return;
	}
	fputc('"', fp);
	if (sa_is_formula_like(s))
		fputc('\'', fp);
	for (; s && *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}
