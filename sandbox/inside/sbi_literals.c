/* sbi_literals.c - a neighbourhood set's literals written into the source (sbi_literals.h). */
#include "sbi_literals.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most literals one set moves (inspect moves at most a few). */
#define LIT_MAX 64
/* The longest replacement: repr() of a float. */
#define LIT_TEXT 40

struct edit {
	size_t at, len;            /* the token's bytes in the source */
	char text[LIT_TEXT];       /* what replaces them */
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_word(char c)
{
	return is_digit(c) || c == '_' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Parses "@LINE:COL" into *line and *col (both at least 1). Returns 0 or -1. */
static int parse_key(const char *k, unsigned long *line, unsigned long *col)
{
	char *end;

	if (k[0] != SBI_LITERAL_MARK || !is_digit(k[1]))
		return -1;
	*line = strtoul(k + 1, &end, 10);
	if (*end != ':' || !is_digit(end[1]))
		return -1;
	*col = strtoul(end + 1, &end, 10);
	return *end || *line == 0 || *col == 0 || *line > 10000000 || *col > 10000000 ? -1 : 0;
}

/* The byte offset of line:col in src, or (size_t)-1 when the source has no such byte. */
static size_t offset_of(const char *src, size_t len, unsigned long line, unsigned long col)
{
	size_t i = 0, start;

	for (unsigned long l = 1; l < line; l++) {
		while (i < len && src[i] != '\n' && src[i] != '\r')
			i++;
		if (i == len)
			return (size_t)-1;
		i += src[i] == '\r' && i + 1 < len && src[i + 1] == '\n' ? 2 : 1;
	}
	start = i;
	while (i < len && src[i] != '\n' && src[i] != '\r')
		i++;
	return col - 1 < i - start ? start + col - 1 : (size_t)-1;
}

static size_t skip_digits(const char *s, size_t i, size_t len)
{
	while (i < len && (is_digit(s[i]) || s[i] == '_'))
		i++;
	return i;
}

/* The length of the plain decimal number starting at src[at], 0 when none starts there. */
static size_t number_at(const char *src, size_t len, size_t at)
{
	size_t i = at;

	if (at > 0 && is_word(src[at - 1]))
		return 0;
	if (!(is_digit(src[i]) || (src[i] == '.' && i + 1 < len && is_digit(src[i + 1]))))
		return 0;
	i = skip_digits(src, i, len);
	if (i < len && src[i] == '.')
		i = skip_digits(src, i + 1, len);
	if (i < len && (src[i] == 'e' || src[i] == 'E')) {
		size_t j = i + 1;

		if (j < len && (src[j] == '+' || src[j] == '-'))
			j++;
		if (j >= len || !is_digit(src[j]))
			return 0;
		i = skip_digits(src, j, len);
	}
	return i < len && is_word(src[i]) ? 0 : i - at;
}

/* repr() of v into text when v is a positive finite int or float. Returns 0 or -1. */
static int value_text(PyObject *v, char *text, size_t cap)
{
	PyObject *r;
	const char *s;
	int rc = -1;
	double d;

	if (PyBool_Check(v) || !(PyLong_Check(v) || PyFloat_Check(v)))
		return -1;
	d = PyFloat_Check(v) ? PyFloat_AsDouble(v) : PyLong_AsDouble(v);
	if (!(isfinite(d) && d > 0)) {
		PyErr_Clear();
		return -1;
	}
	r = PyObject_Repr(v);
	s = r ? PyUnicode_AsUTF8(r) : NULL;
	if (s && strlen(s) < cap && strspn(s, "0123456789.e+-") == strlen(s)) {
		snprintf(text, cap, "%s", s);
		rc = 0;
	}
	Py_XDECREF(r);
	PyErr_Clear();
	return rc;
}

static int by_offset(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* Reads the literal keys of params into e[*n], each checked against src. Returns 0 or -1. */
static int read_edits(const char *src, size_t len, PyObject *params, struct edit *e, size_t *n,
		      char *why, size_t whylen)
{
	PyObject *key, *val;
	Py_ssize_t pos = 0;

	while (PyDict_Next(params, &pos, &key, &val)) {
		const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
		unsigned long line, col;
		size_t at;

		if (!k || k[0] != SBI_LITERAL_MARK)
			continue;
		if (*n == LIT_MAX || parse_key(k, &line, &col) < 0) {
			snprintf(why, whylen, "the literal key '%.40s' is not @LINE:COL", k);
			return -1;
		}
		if (value_text(val, e[*n].text, sizeof e[*n].text) < 0) {
			snprintf(why, whylen, "the value for the literal at %lu:%lu is not a positive number", line, col);
			return -1;
		}
		at = offset_of(src, len, line, col);
		e[*n].at = at;
		e[*n].len = at == (size_t)-1 ? 0 : number_at(src, len, at);
		if (e[*n].len == 0) {
			snprintf(why, whylen, "no plain number starts at %lu:%lu of the source", line, col);
			return -1;
		}
		(*n)++;
	}
	return 0;
}

/* Removes the literal keys from params. Returns 0 or -1 (out of memory). */
static int drop_keys(PyObject *params)
{
	PyObject *keys = PyDict_Keys(params);
	int rc = keys ? 0 : -1;

	for (Py_ssize_t i = 0; keys && i < PyList_GET_SIZE(keys); i++) {
		PyObject *k = PyList_GET_ITEM(keys, i);
		const char *s = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;

		if (s && s[0] == SBI_LITERAL_MARK && PyDict_DelItem(params, k) < 0)
			rc = -1;
	}
	Py_XDECREF(keys);
	PyErr_Clear();
	return rc;
}

int sbi_literals_apply(const char *src, size_t len, PyObject *params, char **out, size_t *out_len,
		       char *why, size_t whylen)
{
	struct edit e[LIT_MAX];
	size_t n = 0, cap = len + 1, w = 0, from = 0;
	char *buf;

	if (!params || !PyDict_Check(params))
		return 0;
	if (read_edits(src, len, params, e, &n, why, whylen) < 0)
		return -1;
	if (n == 0)
		return 0;
	qsort(e, n, sizeof *e, by_offset);
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && e[i].at < e[i - 1].at + e[i - 1].len) {
			snprintf(why, whylen, "two literals of the set overlap");
			return -1;
		}
		cap += strlen(e[i].text);
	}
	buf = malloc(cap);
	if (!buf || drop_keys(params) < 0) {
		free(buf);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		size_t t = strlen(e[i].text);

		memcpy(buf + w, src + from, e[i].at - from);
		w += e[i].at - from;
		memcpy(buf + w, e[i].text, t);
		w += t;
		from = e[i].at + e[i].len;
	}
	memcpy(buf + w, src + from, len - from);
	w += len - from;
	buf[w] = '\0';
	*out = buf;
	*out_len = w;
	return 1;
}
