/* csvfield.h - turning one libcsv field (bytes, not NUL-terminated) into a value. */
#ifndef SA_CSVFIELD_H
#define SA_CSVFIELD_H

#include <stddef.h>

/* Longest field a loader accepts; anything longer is an error, not a truncation. */
#define SA_CSV_FIELD_MAX 63

/* Copies field[0..len) into text (size textlen) as a C string. Returns 0, or -1 when the field
 * does not fit or holds a NUL byte. A NULL field (libcsv's empty) gives "". */
int sa_csv_field_text(const void *field, size_t len, char *text, size_t textlen);

/* Parses the whole of text as a finite decimal number. Returns 0, or -1 ("", "nan", "1x",
 * "inf", overflow). */
int sa_csv_field_number(const char *text, double *out);

/* Longest line a loader accepts. libcsv grows a field's buffer in fixed steps, so one huge
 * line would cost quadratic time; lines are measured before parsing instead. */
#define SA_CSV_LINE_MAX 4096

/* Finds the first line of buf[0..len) longer than max bytes. Returns 0 when there is none, else
 * its 1-based line number. */
size_t sa_csv_long_line(const char *buf, size_t len, size_t max);

#endif
