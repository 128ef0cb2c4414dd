/* text.h - making hostile text safe for the formats a bundle holds. */
#ifndef SA_TEXT_H
#define SA_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* True if buf[0..len) is valid UTF-8 (no overlongs, no surrogates); *bad_line, when not NULL,
 * gets the 1-based line of the first bad byte. */
bool sa_utf8_valid(const char *buf, size_t len, int *bad_line);

/* Writes s to fp with & < > " ' escaped as HTML entities. */
void sa_html_escape(FILE *fp, const char *s);

/* True if a text cell would be taken as a formula by a spreadsheet: it starts with = + - @
 * (or a tab/CR before one). Numbers are never passed here. */
bool sa_is_formula_like(const char *s);

/* Writes s as one CSV field: quoted when needed, and prefixed with a single quote when
 * sa_is_formula_like, so it stays text. */
void sa_csv_write_text(FILE *fp, const char *s);

#endif
