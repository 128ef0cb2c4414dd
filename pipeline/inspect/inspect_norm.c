/* inspect_norm.c - the normalised code of a strategy: one walk over every field of the tree,
 * written into two texts (constants kept, constants abstracted) and hashed. Reads the tree
 * only; nothing of the upload runs. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "inspect_norm.h"
#include "inspect_ast.h"
#include "inspect_node.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"

/* A growable text. */
struct text {
	char *s;
	size_t n, cap;
	bool failed;
};

struct norm {
	struct text version, structure;
	PyObject *bound;   /* borrowed: the names the file binds */
	PyObject *number;  /* name -> its number, by first use */
	int depth;
	bool failed;
};

static void text_add(struct text *t, const char *s, size_t n)
{
	if (t->failed)
		return;
	if (t->n + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		char *p;

		while (cap < t->n + n + 1)
			cap *= 2;
		p = realloc(t->s, cap);
		if (!p) {
			t->failed = true;
			return;
		}
		t->s = p;
		t->cap = cap;
	}
	memcpy(t->s + t->n, s, n);
	t->n += n;
	t->s[t->n] = '\0';
}

/* Writes s into both texts. */
static void both(struct norm *nm, const char *s)
{
	text_add(&nm->version, s, strlen(s));
	text_add(&nm->structure, s, strlen(s));
}

/* The pipeline finds these by name: renaming them changes what is audited. */
static bool is_interface(const char *name)
{
	return strcmp(name, "signals") == 0 || strcmp(name, "VARIANTS") == 0;
}

/* Writes an identifier: a name the file binds by its number (n0, n1, ... by first use), any
 * other (a module, a builtin, an attribute, a keyword) as it is. */
static void identifier(struct norm *nm, PyObject *s, bool may_number)
{
	const char *u = PyUnicode_AsUTF8(s);
	char buf[32];

	if (!u) {
		PyErr_Clear();
		nm->failed = true;
		return;
	}
	if (may_number && !is_interface(u) && PySet_Contains(nm->bound, s) == 1) {
		PyObject *k = PyDict_GetItemWithError(nm->number, s);
		long n;

		if (!k) {
			PyObject *v = PyLong_FromSsize_t(PyDict_Size(nm->number));

			if (!v || PyDict_SetItem(nm->number, s, v) < 0) {
				Py_XDECREF(v);
				PyErr_Clear();
				nm->failed = true;
				return;
			}
			k = v;
			Py_DECREF(v);
		}
		n = PyLong_AsLong(k);
		snprintf(buf, sizeof buf, "n%ld", n);
		both(nm, buf);
		return;
	}
	PyErr_Clear();
	both(nm, "'");
	both(nm, u);
}

/* A literal constant: its repr in the version, one mark in the structure. sign is "-" for a
 * negated number literal, so -5 and 5 are the same structure. */
static void constant(struct norm *nm, PyObject *value, const char *sign)
{
	PyObject *r = PyObject_Repr(value);
	const char *u = r ? PyUnicode_AsUTF8(r) : NULL;

	if (!u) {
		PyErr_Clear();
		nm->failed = true;
	} else {
		text_add(&nm->version, "C", 1);
		text_add(&nm->version, sign, strlen(sign));
		text_add(&nm->version, u, strlen(u));
		text_add(&nm->structure, "C", 1);
	}
	Py_XDECREF(r);
}

static void node(struct norm *nm, PyObject *n);

/* True for a bare string statement: a docstring, not code. */
static bool is_docstring(PyObject *stmt)
{
	PyObject *v = inspect_is(stmt, "Expr") ? inspect_get(stmt, "value") : NULL, *c = NULL;
	bool yes = false;

	if (v && inspect_is(v, "Constant")) {
		c = inspect_get(v, "value");
		yes = c && PyUnicode_Check(c);
	}
	Py_XDECREF(c);
	Py_XDECREF(v);
	return yes;
}

/* Which string fields hold a name the file may bind (and so is numbered); the others (an
 * attribute, a module, a keyword argument, an imported name) are what they say. */
static bool numbered_field(PyObject *owner, const char *field)
{
	if (inspect_is(owner, "alias"))
		return strcmp(field, "asname") == 0;
	return strcmp(field, "id") == 0 || strcmp(field, "arg") == 0 ? !inspect_is(owner, "keyword")
	       : strcmp(field, "name") == 0 || strcmp(field, "names") == 0;
}

static void value(struct norm *nm, PyObject *owner, const char *field, PyObject *v, bool body)
{
	if (PyList_Check(v)) {
		both(nm, "[");
		for (Py_ssize_t j = 0; j < PyList_GET_SIZE(v) && !nm->failed; j++) {
			PyObject *item = PyList_GET_ITEM(v, j);

			if (body && j == 0 && is_docstring(item))
				continue;
			value(nm, owner, field, item, false);
			both(nm, ",");
		}
		both(nm, "]");
	} else if (inspect_is_node(v)) {
		node(nm, v);
	} else if (PyUnicode_Check(v)) {
		identifier(nm, v, numbered_field(owner, field));
	} else if (v == Py_None) {
		both(nm, "~");
	} else if (PyLong_Check(v)) {
		char buf[32];

		snprintf(buf, sizeof buf, "%ld", PyLong_AsLong(v));
		PyErr_Clear();
		both(nm, buf);
	} else {
		constant(nm, v, "");
	}
}

/* A negated or plus-signed number literal, written as one constant. Returns true when n is one. */
static bool signed_number(struct norm *nm, PyObject *n)
{
	PyObject *op = inspect_is(n, "UnaryOp") ? inspect_get(n, "op") : NULL, *arg = NULL, *v = NULL;
	bool yes = false;

	if (op && (inspect_is(op, "USub") || inspect_is(op, "UAdd"))) {
		arg = inspect_get(n, "operand");
		v = arg && inspect_is(arg, "Constant") ? inspect_get(arg, "value") : NULL;
		if (v && !PyBool_Check(v) && (PyLong_Check(v) || PyFloat_Check(v) || PyComplex_Check(v))) {
			constant(nm, v, inspect_is(op, "USub") ? "-" : "+");
			yes = true;
		}
	}
	Py_XDECREF(v);
	Py_XDECREF(arg);
	Py_XDECREF(op);
	return yes;
}

static void node(struct norm *nm, PyObject *n)
{
	PyObject *fields = NULL;
	const char *kind = inspect_kind(n);
	bool has_body = inspect_is(n, "Module") || inspect_is(n, "FunctionDef") || inspect_is(n, "AsyncFunctionDef") ||
			inspect_is(n, "ClassDef");

	if (++nm->depth > INSPECT_MAX_DEPTH) {
		nm->failed = true;
		goto out;
	}
	if (signed_number(nm, n))
		goto out;
	if (inspect_is(n, "Constant")) {
		PyObject *v = inspect_get(n, "value");

		if (v)
			constant(nm, v, "");
		else
			nm->failed = true;
		Py_XDECREF(v);
		goto out;
	}
	both(nm, kind);
	both(nm, "(");
	fields = inspect_get((PyObject *)Py_TYPE(n), "_fields");
	for (Py_ssize_t i = 0; fields && PyTuple_Check(fields) && i < PyTuple_GET_SIZE(fields) && !nm->failed; i++) {
		PyObject *f = PyTuple_GET_ITEM(fields, i), *v;
		const char *fname = PyUnicode_AsUTF8(f);

		/* type comments are comments */
		if (!fname || strcmp(fname, "type_comment") == 0) {
			PyErr_Clear();
			continue;
		}
		v = PyObject_GetAttr(n, f);
		if (!v) {
			PyErr_Clear();
			continue;
		}
		value(nm, n, fname, v, has_body && strcmp(fname, "body") == 0);
		both(nm, ";");
		Py_DECREF(v);
	}
	both(nm, ")");
out:
	Py_XDECREF(fields);
	nm->depth--;
}

cJSON *inspect_norm(PyObject *tree, PyObject *bound)
{
	struct norm nm = { .bound = bound, .number = PyDict_New() };
	char v[65] = "", s[65] = "", err[128];
	cJSON *o = NULL;

	if (!nm.number)
		goto out;
	node(&nm, tree);
	if (nm.failed || nm.version.failed || nm.structure.failed || !nm.version.s || !nm.structure.s)
		goto out;
	/* a hash that cannot be computed (out of memory in OpenSSL) leaves no normalised code,
	 * as any other failure here */
	if (sa_sha256_buf(nm.version.s, nm.version.n, v, err, sizeof err) != 0 ||
	    sa_sha256_buf(nm.structure.s, nm.structure.n, s, err, sizeof err) != 0)
		goto out;
	o = cJSON_CreateObject();
	if (o) {
		cJSON_AddStringToObject(o, "version_sha256", v);
		cJSON_AddStringToObject(o, "structure_sha256", s);
	}
out:
	PyErr_Clear();
	Py_XDECREF(nm.number);
	free(nm.version.s);
	free(nm.structure.s);
	return o;
}
