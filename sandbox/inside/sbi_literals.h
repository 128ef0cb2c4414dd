/* sbi_literals.h - a neighbourhood set's numeric literals written into the upload's source
 * before it is compiled: trusted code, run before any of the upload does. */
#ifndef SBI_LITERALS_H
#define SBI_LITERALS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>

/* The first character of a literal's key: "@LINE:COL" names the number whose first byte is
 * byte COL of line LINE of the source (both counted from 1; lines end at \n, \r\n or \r, as
 * Python's parser counts them), as inspect.json's neighbourhood names it. */
#define SBI_LITERAL_MARK '@'

/* Takes every "@LINE:COL" key out of params (a dict, or NULL) and writes a copy of src[0, len)
 * with each such literal token replaced by repr() of its value (an int or a float, positive
 * and finite; the token a plain decimal number: digits, a point, an exponent, underscores),
 * by position, never by search. Returns 1 with *out (malloc'd, NUL-terminated) and *out_len,
 * 0 when params names no literal (*out untouched), -1 with why when a key is malformed, its
 * value is not such a number, no plain number starts there, or two overlap. */
int sbi_literals_apply(const char *src, size_t len, PyObject *params, char **out, size_t *out_len,
		       char *why, size_t whylen);

#endif
