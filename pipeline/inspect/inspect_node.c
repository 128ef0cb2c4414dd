/* inspect_node.c - reading CPython ast nodes from C: field access and the expression
 * predicates the inspect rules need. Only reads the tree; nothing of the upload runs. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "inspect_node.h"

#include <cjson/cJSON.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* ast.AST, the base of every node; set once by inspect_ast_init in the parsing child. */
PyObject *inspect_ast_base;

/* The node's class name ("Import"), whether the type was named "Import" or "ast.Import". */
const char *inspect_kind(PyObject *node)
{
	const char *n = Py_TYPE(node)->tp_name;
	const char *dot = strrchr(n, '.');

	return dot ? dot + 1 : n;
}

bool inspect_is(PyObject *node, const char *k)
{
	return node != NULL && strcmp(inspect_kind(node), k) == 0;
}

bool inspect_is_node(PyObject *o)
{
	int r = PyObject_IsInstance(o, inspect_ast_base);

	if (r < 0)
		PyErr_Clear();
	return r == 1;
}

/* A new reference to node.name, or NULL with the error cleared. */
PyObject *inspect_get(PyObject *node, const char *name)
{
	PyObject *v = PyObject_GetAttrString(node, name);

	if (v == NULL)
		PyErr_Clear();
	return v;
}

/* node.name as UTF-8 into buf. False when missing, not a str, or longer than buf. */
bool inspect_get_str(PyObject *node, const char *name, char *buf, size_t len)
{
	PyObject *v = inspect_get(node, name);
	bool ok = false;
	const char *s;
	Py_ssize_t n;

	if (v == NULL || !PyUnicode_Check(v))
		goto out;
	s = PyUnicode_AsUTF8AndSize(v, &n);
	if (s == NULL) {
		PyErr_Clear();
		goto out;
	}
	if ((size_t)n >= len)
		goto out;
	memcpy(buf, s, (size_t)n + 1);
	ok = true;
out:
	Py_XDECREF(v);
	return ok;
}

/* node.name as UTF-8 into buf, cut at a character boundary when longer. False when missing
 * or not a str. */
bool inspect_get_text(PyObject *node, const char *name, char *buf, size_t len)
{
	PyObject *v = inspect_get(node, name);
	const char *s = v != NULL && PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
	size_t n = 0;

	if (s != NULL) {
		n = strlen(s);
		if (n >= len) {
			n = len - 1;
			while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
				n--;
		}
		memcpy(buf, s, n);
		buf[n] = '\0';
	}
	PyErr_Clear();
	Py_XDECREF(v);
	return s != NULL;
}

/* node.name as a C long, or -1 when missing or not an int (line and column fields). */
long inspect_get_long(PyObject *node, const char *name)
{
	PyObject *v = inspect_get(node, name);
	long x = -1;

	if (v != NULL && PyLong_Check(v)) {
		x = PyLong_AsLong(v);
		if (x == -1 && PyErr_Occurred())
			PyErr_Clear();
	}
	Py_XDECREF(v);
	return x;
}

/* Calls fn on every child node of node (fields holding a node or a list of nodes), in field
 * order. Returns false if fn asked to stop. */
bool inspect_each_child(PyObject *node, inspect_child_fn fn, void *ctx)
{
	PyObject *fields = inspect_get((PyObject *)Py_TYPE(node), "_fields");
	bool go = true;

	if (fields == NULL || !PyTuple_Check(fields))
		goto out;
	for (Py_ssize_t i = 0; go && i < PyTuple_GET_SIZE(fields); i++) {
		PyObject *v = PyObject_GetAttr(node, PyTuple_GET_ITEM(fields, i));
		if (v == NULL) {
			PyErr_Clear();
			continue;
		}
		if (PyList_Check(v)) {
			for (Py_ssize_t j = 0; go && j < PyList_GET_SIZE(v); j++) {
				PyObject *item = PyList_GET_ITEM(v, j);
				if (inspect_is_node(item))
					go = fn(ctx, item);
			}
		} else if (inspect_is_node(v)) {
			go = fn(ctx, v);
		}
		Py_DECREF(v);
	}
out:
	Py_XDECREF(fields);
	return go;
}

/* A new reference to the value of keyword argument name in call, or NULL. */
PyObject *inspect_keyword_value(PyObject *call, const char *name)
{
	PyObject *kws = inspect_get(call, "keywords");
	PyObject *val = NULL;
	char arg[64];

	if (kws == NULL || !PyList_Check(kws))
		goto out;
	for (Py_ssize_t i = 0; val == NULL && i < PyList_GET_SIZE(kws); i++) {
		PyObject *kw = PyList_GET_ITEM(kws, i);
		if (inspect_get_str(kw, "arg", arg, sizeof(arg)) && strcmp(arg, name) == 0)
			val = inspect_get(kw, "value");
	}
out:
	Py_XDECREF(kws);
	return val;
}

/* A new reference to the first positional argument of call, or NULL. */
PyObject *inspect_first_arg(PyObject *call)
{
	PyObject *args = inspect_get(call, "args");
	PyObject *a = NULL;

	if (args != NULL && PyList_Check(args) && PyList_GET_SIZE(args) > 0) {
		a = PyList_GET_ITEM(args, 0);
		Py_INCREF(a);
	}
	Py_XDECREF(args);
	return a;
}

/* True if e is a literal constant equal to value (identity for True/False/None). */
bool inspect_is_const(PyObject *e, PyObject *value)
{
	PyObject *v;
	bool r = false;

	if (!inspect_is(e, "Constant"))
		return false;
	v = inspect_get(e, "value");
	r = v == value;
	Py_XDECREF(v);
	return r;
}

/* True if e is the integer literal n. */
bool inspect_is_int_const(PyObject *e, long n)
{
	PyObject *v;
	bool r = false;

	if (!inspect_is(e, "Constant"))
		return false;
	v = inspect_get(e, "value");
	if (v != NULL && PyLong_Check(v) && !PyBool_Check(v)) {
		r = PyLong_AsLong(v) == n;
		PyErr_Clear();
	}
	Py_XDECREF(v);
	return r;
}

/* True if e is a string constant equal to one of the NULL-terminated list. */
bool inspect_is_str_const(PyObject *e, const char *const *list)
{
	char s[32];

	if (!inspect_is(e, "Constant") || !inspect_get_str(e, "value", s, sizeof(s)))
		return false;
	for (; *list != NULL; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

/* True for -expr or a negative numeric literal. */
bool inspect_is_negative(PyObject *e)
{
	PyObject *x = NULL;
	bool neg = false;

	if (e == NULL)
		goto out;
	if (inspect_is(e, "UnaryOp")) {
		x = inspect_get(e, "op");
		neg = inspect_is(x, "USub");
	} else if (inspect_is(e, "Constant")) {
		x = inspect_get(e, "value");
		if (x != NULL && (PyLong_Check(x) || PyFloat_Check(x)) && !PyBool_Check(x)) {
			PyObject *zero = PyLong_FromLong(0);
			neg = zero != NULL && PyObject_RichCompareBool(x, zero, Py_LT) == 1;
			Py_XDECREF(zero);
		}
		PyErr_Clear();
	}
out:
	Py_XDECREF(x);
	return neg;
}

/* Structural equality of two small expressions: names, attributes, subscripts, constants. */
bool inspect_same_expr(PyObject *a, PyObject *b, int depth)
{
	PyObject *x = NULL, *y = NULL, *p = NULL, *q = NULL;
	char s[128], t[128];
	bool same = false;

	if (depth > EXPR_DEPTH || strcmp(inspect_kind(a), inspect_kind(b)) != 0)
		goto out;
	if (inspect_is(a, "Name")) {
		same = inspect_get_str(a, "id", s, sizeof(s)) && inspect_get_str(b, "id", t, sizeof(t)) && strcmp(s, t) == 0;
	} else if (inspect_is(a, "Constant")) {
		x = inspect_get(a, "value");
		y = inspect_get(b, "value");
		same = x != NULL && y != NULL && Py_TYPE(x) == Py_TYPE(y) &&
		       PyObject_RichCompareBool(x, y, Py_EQ) == 1;
		PyErr_Clear();
	} else if (inspect_is(a, "Attribute")) {
		x = inspect_get(a, "value");
		y = inspect_get(b, "value");
		same = inspect_get_str(a, "attr", s, sizeof(s)) && inspect_get_str(b, "attr", t, sizeof(t)) &&
		       strcmp(s, t) == 0 && x != NULL && y != NULL && inspect_same_expr(x, y, depth + 1);
	} else if (inspect_is(a, "Subscript")) {
		x = inspect_get(a, "value");
		y = inspect_get(b, "value");
		p = inspect_get(a, "slice");
		q = inspect_get(b, "slice");
		same = x != NULL && y != NULL && p != NULL && q != NULL &&
		       inspect_same_expr(x, y, depth + 1) && inspect_same_expr(p, q, depth + 1);
	}
out:
	Py_XDECREF(x);
	Py_XDECREF(y);
	Py_XDECREF(p);
	Py_XDECREF(q);
	return same;
}

struct contains {
	PyObject *needle;
	int depth;
	bool found;
};

static bool contains_child(void *ctx, PyObject *child);

/* True if needle occurs (structurally) anywhere in hay. */
bool inspect_contains_expr(PyObject *hay, PyObject *needle, int depth)
{
	struct contains c = {needle, depth, false};

	if (depth > EXPR_DEPTH)
		return false;
	if (inspect_same_expr(hay, needle, 0))
		return true;
	inspect_each_child(hay, contains_child, &c);
	return c.found;
}

static bool contains_child(void *ctx, PyObject *child)
{
	struct contains *c = ctx;

	c->found = inspect_contains_expr(child, c->needle, c->depth + 1);
	return !c->found;
}

/* inspect_py_json, with the source as bytes after arg when bytes is not NULL. */
static cJSON *py_json(const char *src, const char *fn, PyObject *module, int arg, PyObject *bytes)
{
	PyObject *g = PyDict_New(), *run = NULL, *f, *r = NULL;
	const char *text;
	cJSON *out = NULL;

	if (!g || PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins()) < 0)
		goto out;
	run = PyRun_String(src, Py_file_input, g, g);
	f = run ? PyDict_GetItemString(g, fn) : NULL;
	if (f && bytes)
		r = PyObject_CallFunction(f, "OiO", module, arg, bytes);
	else if (f)
		r = arg >= 0 ? PyObject_CallFunction(f, "Oi", module, arg) :
			       PyObject_CallFunctionObjArgs(f, module, NULL);
	text = r && PyUnicode_Check(r) ? PyUnicode_AsUTF8(r) : NULL;
	out = text ? cJSON_Parse(text) : NULL;
out:
	PyErr_Clear();
	Py_XDECREF(r);
	Py_XDECREF(run);
	Py_XDECREF(g);
	return out;
}

cJSON *inspect_py_json(const char *src, const char *fn, PyObject *module, int arg)
{
	return py_json(src, fn, module, arg, NULL);
}

cJSON *inspect_py_json_text(const char *src, const char *fn, PyObject *module, int arg,
			    const char *text)
{
	PyObject *bytes = PyBytes_FromString(text);
	cJSON *out = bytes ? py_json(src, fn, module, arg, bytes) : NULL;

	PyErr_Clear();
	Py_XDECREF(bytes);
	return out;
}
