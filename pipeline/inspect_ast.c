/* inspect_ast.c - the strategy's syntax tree, from the CPython parser, walked from C against
 * the rule table. Only parses: the tree is data, nothing of the upload is ever run. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "inspect_ast.h"
#include "inspect_rules.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* How deep the structural comparisons of the normalisation hint may look. */
#define EXPR_DEPTH 32

struct walk {
	cJSON *flags;
	PyObject *bound;           /* names assigned anywhere in the file (a set of str) */
	PyObject *bare_string;     /* the constant of a bare string statement: a docstring, not code */
	int depth;
	int norm_off;              /* > 0 inside an expression already flagged SA404 */
	int nflags;
	bool collecting;           /* first pass: only gather bound names */
	bool too_deep;
	bool truncated;
};

typedef bool (*child_fn)(void *ctx, PyObject *child);

/* ast.AST, the base of every node; set once by inspect_ast_init in the parsing child. */
static PyObject *ast_base;

/* The node's class name ("Import"), whether the type was named "Import" or "ast.Import". */
static const char *kind(PyObject *node)
{
	const char *n = Py_TYPE(node)->tp_name;
	const char *dot = strrchr(n, '.');

	return dot ? dot + 1 : n;
}

static bool is(PyObject *node, const char *k)
{
	return node != NULL && strcmp(kind(node), k) == 0;
}

static bool is_node(PyObject *o)
{
	int r = PyObject_IsInstance(o, ast_base);

	if (r < 0)
		PyErr_Clear();
	return r == 1;
}

/* A new reference to node.name, or NULL with the error cleared. */
static PyObject *get(PyObject *node, const char *name)
{
	PyObject *v = PyObject_GetAttrString(node, name);

	if (v == NULL)
		PyErr_Clear();
	return v;
}

/* node.name as UTF-8 into buf. False when missing, not a str, or longer than buf. */
static bool get_str(PyObject *node, const char *name, char *buf, size_t len)
{
	PyObject *v = get(node, name);
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
static bool get_text(PyObject *node, const char *name, char *buf, size_t len)
{
	PyObject *v = get(node, name);
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

static long get_long(PyObject *node, const char *name)
{
	PyObject *v = get(node, name);
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
static bool each_child(PyObject *node, child_fn fn, void *ctx)
{
	PyObject *fields = get((PyObject *)Py_TYPE(node), "_fields");
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
				if (is_node(item))
					go = fn(ctx, item);
			}
		} else if (is_node(v)) {
			go = fn(ctx, v);
		}
		Py_DECREF(v);
	}
out:
	Py_XDECREF(fields);
	return go;
}

/* Records a flag at node; for an attribute, at its name. */
static void add_flag(struct walk *w, const char *code, PyObject *node, const char *detail)
{
	cJSON *f;
	char attr[128];
	long line, col, end;

	if (w->collecting)
		return;
	if (w->nflags >= INSPECT_MAX_FLAGS) {
		w->truncated = true;
		return;
	}
	f = cJSON_CreateObject();
	cJSON_AddStringToObject(f, "code", code);
	if (is(node, "Attribute") && get_str(node, "attr", attr, sizeof(attr)) &&
	    (end = get_long(node, "end_col_offset")) >= (long)strlen(attr)) {
		/* Point at the attribute's name, not at the start of the chain before it. */
		line = get_long(node, "end_lineno");
		col = end - (long)strlen(attr);
	} else {
		line = get_long(node, "lineno");
		col = get_long(node, "col_offset");
	}
	cJSON_AddNumberToObject(f, "line", (double)line);
	cJSON_AddNumberToObject(f, "col", (double)col);
	cJSON_AddStringToObject(f, "detail", detail);
	cJSON_AddItemToArray(w->flags, f);
	w->nflags++;
}

/* A new reference to the value of keyword argument name in call, or NULL. */
static PyObject *keyword_value(PyObject *call, const char *name)
{
	PyObject *kws = get(call, "keywords");
	PyObject *val = NULL;
	char arg[64];

	if (kws == NULL || !PyList_Check(kws))
		goto out;
	for (Py_ssize_t i = 0; val == NULL && i < PyList_GET_SIZE(kws); i++) {
		PyObject *kw = PyList_GET_ITEM(kws, i);
		if (get_str(kw, "arg", arg, sizeof(arg)) && strcmp(arg, name) == 0)
			val = get(kw, "value");
	}
out:
	Py_XDECREF(kws);
	return val;
}

/* A new reference to the first positional argument of call, or NULL. */
static PyObject *first_arg(PyObject *call)
{
	PyObject *args = get(call, "args");
	PyObject *a = NULL;

	if (args != NULL && PyList_Check(args) && PyList_GET_SIZE(args) > 0) {
		a = PyList_GET_ITEM(args, 0);
		Py_INCREF(a);
	}
	Py_XDECREF(args);
	return a;
}

/* True if e is a literal constant equal to value (identity for True/False/None). */
static bool is_const(PyObject *e, PyObject *value)
{
	PyObject *v;
	bool r = false;

	if (!is(e, "Constant"))
		return false;
	v = get(e, "value");
	r = v == value;
	Py_XDECREF(v);
	return r;
}

/* True if e is the integer literal n. */
static bool is_int_const(PyObject *e, long n)
{
	PyObject *v;
	bool r = false;

	if (!is(e, "Constant"))
		return false;
	v = get(e, "value");
	if (v != NULL && PyLong_Check(v) && !PyBool_Check(v)) {
		r = PyLong_AsLong(v) == n;
		PyErr_Clear();
	}
	Py_XDECREF(v);
	return r;
}

/* True if e is a string constant equal to one of the NULL-terminated list. */
static bool is_str_const(PyObject *e, const char *const *list)
{
	char s[32];

	if (!is(e, "Constant") || !get_str(e, "value", s, sizeof(s)))
		return false;
	for (; *list != NULL; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

/* True for -expr or a negative numeric literal. */
static bool is_negative(PyObject *e)
{
	PyObject *x = NULL;
	bool neg = false;

	if (e == NULL)
		goto out;
	if (is(e, "UnaryOp")) {
		x = get(e, "op");
		neg = is(x, "USub");
	} else if (is(e, "Constant")) {
		x = get(e, "value");
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
static bool same_expr(PyObject *a, PyObject *b, int depth)
{
	PyObject *x = NULL, *y = NULL, *p = NULL, *q = NULL;
	char s[128], t[128];
	bool same = false;

	if (depth > EXPR_DEPTH || strcmp(kind(a), kind(b)) != 0)
		goto out;
	if (is(a, "Name")) {
		same = get_str(a, "id", s, sizeof(s)) && get_str(b, "id", t, sizeof(t)) && strcmp(s, t) == 0;
	} else if (is(a, "Constant")) {
		x = get(a, "value");
		y = get(b, "value");
		same = x != NULL && y != NULL && Py_TYPE(x) == Py_TYPE(y) &&
		       PyObject_RichCompareBool(x, y, Py_EQ) == 1;
		PyErr_Clear();
	} else if (is(a, "Attribute")) {
		x = get(a, "value");
		y = get(b, "value");
		same = get_str(a, "attr", s, sizeof(s)) && get_str(b, "attr", t, sizeof(t)) &&
		       strcmp(s, t) == 0 && x != NULL && y != NULL && same_expr(x, y, depth + 1);
	} else if (is(a, "Subscript")) {
		x = get(a, "value");
		y = get(b, "value");
		p = get(a, "slice");
		q = get(b, "slice");
		same = x != NULL && y != NULL && p != NULL && q != NULL &&
		       same_expr(x, y, depth + 1) && same_expr(p, q, depth + 1);
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
static bool contains_expr(PyObject *hay, PyObject *needle, int depth)
{
	struct contains c = {needle, depth, false};

	if (depth > EXPR_DEPTH)
		return false;
	if (same_expr(hay, needle, 0))
		return true;
	each_child(hay, contains_child, &c);
	return c.found;
}

static bool contains_child(void *ctx, PyObject *child)
{
	struct contains *c = ctx;

	c->found = contains_expr(child, c->needle, c->depth + 1);
	return !c->found;
}

/* True if the chain under e (x.rolling(20), df.groupby(k)['x'], ...) makes a moving window. */
static bool is_windowed(PyObject *e)
{
	PyObject *cur = e, *next = NULL, *func = NULL;
	char attr[64];
	bool win = false;

	Py_INCREF(cur);
	for (int i = 0; i < EXPR_DEPTH && !win; i++) {
		if (is(cur, "Call")) {
			func = get(cur, "func");
			if (func != NULL && is(func, "Attribute") && get_str(func, "attr", attr, sizeof(attr)))
				win = inspect_is_window(attr);
			next = func;
			func = NULL;
		} else if (is(cur, "Attribute") || is(cur, "Subscript")) {
			next = get(cur, "value");
		} else {
			break;
		}
		Py_DECREF(cur);
		cur = next;
		next = NULL;
		if (cur == NULL)
			break;
	}
	Py_XDECREF(cur);
	return win;
}

/* If e is a whole-column reducer call (x.mean(), np.std(x), not x.rolling(n).mean(), not
 * across columns with axis=1), returns a new reference to the column it reduces and puts
 * the reducer's name in name; otherwise NULL. */
static PyObject *reducer_column(PyObject *e, char *name, size_t len)
{
	static const char *const across[] = {"columns", NULL};
	PyObject *func = NULL, *recv = NULL, *axis = NULL, *col = NULL;
	char mod[16];

	if (!is(e, "Call"))
		goto out;
	func = get(e, "func");
	if (func == NULL || !is(func, "Attribute") || !get_str(func, "attr", name, len) ||
	    !inspect_is_reducer(name))
		goto out;
	axis = keyword_value(e, "axis");
	if (axis == NULL && strcmp(name, "quantile") != 0)
		axis = first_arg(e);
	if (axis != NULL && (is_int_const(axis, 1) || is_str_const(axis, across)))
		goto out;
	recv = get(func, "value");
	if (recv != NULL && is(recv, "Name") && get_str(recv, "id", mod, sizeof(mod)) &&
	    (strcmp(mod, "np") == 0 || strcmp(mod, "numpy") == 0)) {
		Py_DECREF(recv);
		recv = first_arg(e);
	}
	if (recv == NULL || is_windowed(recv))
		goto out;
	col = recv;
	recv = NULL;
out:
	Py_XDECREF(func);
	Py_XDECREF(recv);
	Py_XDECREF(axis);
	return col;
}

/* True if one side reduces a column that the other side also uses: (x - x.mean()) / x.std(). */
static bool normalises(PyObject *a, PyObject *b, char *name, size_t len)
{
	PyObject *col = reducer_column(b, name, len);
	bool hit = col != NULL && contains_expr(a, col, 0);

	Py_XDECREF(col);
	if (!hit) {
		col = reducer_column(a, name, len);
		hit = col != NULL && contains_expr(b, col, 0);
		Py_XDECREF(col);
	}
	return hit;
}

static void check_import(struct walk *w, PyObject *node)
{
	PyObject *names = get(node, "names");
	char mod[256];
	const char *code;

	if (names == NULL || !PyList_Check(names))
		goto out;
	for (Py_ssize_t i = 0; i < PyList_GET_SIZE(names); i++) {
		PyObject *alias = PyList_GET_ITEM(names, i);
		if (get_str(alias, "name", mod, sizeof(mod)) && (code = inspect_import_code(mod)))
			add_flag(w, code, alias, mod);
	}
out:
	Py_XDECREF(names);
}

static void check_import_from(struct walk *w, PyObject *node)
{
	long level = get_long(node, "level");
	char mod[256] = "", rel[300];
	const char *code;

	get_str(node, "module", mod, sizeof(mod));
	if (level > 0) {
		snprintf(rel, sizeof(rel), "%.*s%s", (int)(level < 8 ? level : 8), "........", mod);
		add_flag(w, "SA103", node, rel);
	} else if (mod[0] != '\0' && (code = inspect_import_code(mod))) {
		add_flag(w, code, node, mod);
	}
}

static void check_name(struct walk *w, PyObject *node)
{
	char id[64];
	const char *code;
	PyObject *key = NULL;

	if (!get_str(node, "id", id, sizeof(id)) || !(code = inspect_name_code(id)))
		goto out;
	/* open, input and help are ordinary variable names too ("open = df['open']"); a file that
	 * binds one uses its own. eval, getattr and the rest have no innocent rebinding. */
	if (strcmp(code, "SA202") == 0) {
		key = PyUnicode_FromString(id);
		if (key != NULL && PySet_Contains(w->bound, key) == 1)
			goto out;
		PyErr_Clear();
	}
	add_flag(w, code, node, id);
out:
	Py_XDECREF(key);
}

static void check_attribute(struct walk *w, PyObject *node)
{
	char attr[128];
	const char *code;

	if (get_str(node, "attr", attr, sizeof(attr)) && (code = inspect_attr_code(attr)))
		add_flag(w, code, node, attr);
}

static void check_call(struct walk *w, PyObject *node)
{
	static const char *const backward[] = {"backfill", "bfill", NULL};
	PyObject *func = get(node, "func"), *a = NULL;
	char attr[128], detail[160];
	const char *code;

	if (func == NULL || !is(func, "Attribute") || !get_str(func, "attr", attr, sizeof(attr)))
		goto out;
	if ((code = inspect_method_code(attr)))
		add_flag(w, code, func, attr);
	if (strcmp(attr, "shift") == 0) {
		a = first_arg(node);
		if (a == NULL)
			a = keyword_value(node, "periods");
		if (is_negative(a))
			add_flag(w, "SA401", func, attr);
	} else if (strcmp(attr, "rolling") == 0) {
		a = keyword_value(node, "center");
		if (a != NULL && is_const(a, Py_True))
			add_flag(w, "SA402", func, attr);
	} else if (!inspect_method_code(attr)) {
		a = keyword_value(node, "method");
		if (a != NULL && is_str_const(a, backward)) {
			snprintf(detail, sizeof(detail), "%s(method=bfill)", attr);
			add_flag(w, "SA403", func, detail);
		}
	}
out:
	Py_XDECREF(a);
	Py_XDECREF(func);
}

/* Flags a normalisation over the whole column. Returns true when the expression was flagged,
 * so the expressions inside it are not flagged again. */
static bool check_norm(struct walk *w, PyObject *node)
{
	PyObject *a = NULL, *b = NULL, *op = NULL, *list = NULL;
	char name[32], detail[48];
	bool hit = false;

	if (w->norm_off > 0)
		goto out;
	if (is(node, "BinOp")) {
		op = get(node, "op");
		if (!is(op, "Sub") && !is(op, "Div"))
			goto out;
		a = get(node, "left");
		b = get(node, "right");
	} else {
		list = get(node, "comparators");
		if (list == NULL || !PyList_Check(list) || PyList_GET_SIZE(list) != 1)
			goto out;
		a = get(node, "left");
		b = PyList_GET_ITEM(list, 0);
		Py_INCREF(b);
	}
	if (a != NULL && b != NULL && normalises(a, b, name, sizeof(name))) {
		snprintf(detail, sizeof(detail), "%s()", name);
		add_flag(w, "SA404", node, detail);
		hit = true;
	}
out:
	Py_XDECREF(a);
	Py_XDECREF(b);
	Py_XDECREF(op);
	Py_XDECREF(list);
	return hit;
}

static void check_constant(struct walk *w, PyObject *node)
{
	char s[128];

	if (node == w->bare_string)
		return;
	if (get_str(node, "value", s, sizeof(s)) && inspect_is_dunder(s))
		add_flag(w, "SA303", node, s);
}

/* Remembers the string of a bare string statement, so a docstring that names a dunder is not
 * flagged: it is prose, like a comment. */
static void note_bare_string(struct walk *w, PyObject *node)
{
	PyObject *v = get(node, "value");

	if (v != NULL && is(v, "Constant")) {
		PyObject *s = get(v, "value");
		if (s != NULL && PyUnicode_Check(s))
			w->bare_string = v;
		Py_XDECREF(s);
	}
	Py_XDECREF(v); /* the tree still holds it, so the pointer stays valid for the walk */
}

/* Applies the rules to one node. Returns true if the node's children must not get SA404. */
static bool check(struct walk *w, PyObject *node)
{
	const char *k = kind(node);
	bool quiet = false;

	if (strcmp(k, "Import") == 0)
		check_import(w, node);
	else if (strcmp(k, "ImportFrom") == 0)
		check_import_from(w, node);
	else if (strcmp(k, "Name") == 0)
		check_name(w, node);
	else if (strcmp(k, "Attribute") == 0)
		check_attribute(w, node);
	else if (strcmp(k, "Call") == 0)
		check_call(w, node);
	else if (strcmp(k, "Constant") == 0)
		check_constant(w, node);
	else if (strcmp(k, "Expr") == 0)
		note_bare_string(w, node);
	else if (strcmp(k, "BinOp") == 0 || strcmp(k, "Compare") == 0)
		quiet = check_norm(w, node);
	return quiet;
}

static void bind(struct walk *w, PyObject *node, const char *field)
{
	PyObject *v = get(node, field);

	if (v != NULL && PyUnicode_Check(v) && PySet_Add(w->bound, v) < 0)
		PyErr_Clear();
	Py_XDECREF(v);
}

/* First pass: every name the file binds (assignment targets, defs, parameters, imports). */
static void collect(struct walk *w, PyObject *node)
{
	PyObject *ctx = NULL;

	if (is(node, "Name")) {
		ctx = get(node, "ctx");
		if (!is(ctx, "Load"))
			bind(w, node, "id");
	} else if (is(node, "FunctionDef") || is(node, "AsyncFunctionDef") || is(node, "ClassDef")) {
		bind(w, node, "name");
	} else if (is(node, "arg")) {
		bind(w, node, "arg");
	} else if (is(node, "alias")) {
		bind(w, node, "asname");
		bind(w, node, "name");
	}
	Py_XDECREF(ctx);
}

static void walk(struct walk *w, PyObject *node);

static bool walk_child(void *ctx, PyObject *child)
{
	struct walk *w = ctx;

	walk(w, child);
	return !w->too_deep;
}

static void walk(struct walk *w, PyObject *node)
{
	bool quiet = false;

	if (++w->depth > INSPECT_MAX_DEPTH) {
		w->too_deep = true;
		goto out;
	}
	if (w->collecting)
		collect(w, node);
	else
		quiet = check(w, node);
	if (quiet)
		w->norm_off++;
	each_child(node, walk_child, w);
	if (quiet)
		w->norm_off--;
out:
	w->depth--;
}

/* Why def signals is not callable as signals(df), or NULL when it is. */
static const char *signature_problem(PyObject *def, char *buf, size_t len)
{
	PyObject *args = get(def, "args"), *pos = NULL, *posonly = NULL, *vararg = NULL;
	PyObject *kwonly = NULL, *kwdef = NULL;
	const char *why = NULL;
	Py_ssize_t n = 0;
	long line = get_long(def, "lineno");
	char name[64];

	if (args == NULL)
		goto out;
	pos = get(args, "args");
	posonly = get(args, "posonlyargs");
	vararg = get(args, "vararg");
	kwonly = get(args, "kwonlyargs");
	kwdef = get(args, "kw_defaults");
	n = (pos && PyList_Check(pos) ? PyList_GET_SIZE(pos) : 0) +
	    (posonly && PyList_Check(posonly) ? PyList_GET_SIZE(posonly) : 0);
	if (vararg != NULL && vararg != Py_None) {
		snprintf(buf, len, "'signals' at line %ld takes *args; it must take exactly one positional parameter (df)",
			 line);
		why = buf;
		goto out;
	}
	if (n != 1) {
		snprintf(buf, len, "'signals' at line %ld takes %zd positional parameters; it must take exactly one (df)",
			 line, n);
		why = buf;
		goto out;
	}
	for (Py_ssize_t i = 0; kwonly && kwdef && PyList_Check(kwonly) && PyList_Check(kwdef) &&
			       i < PyList_GET_SIZE(kwonly) && i < PyList_GET_SIZE(kwdef); i++) {
		if (PyList_GET_ITEM(kwdef, i) == Py_None &&
		    get_str(PyList_GET_ITEM(kwonly, i), "arg", name, sizeof(name))) {
			snprintf(buf, len, "'signals' at line %ld has a required keyword-only parameter '%s'; it is called as signals(df)",
				 line, name);
			why = buf;
			goto out;
		}
	}
out:
	Py_XDECREF(args);
	Py_XDECREF(pos);
	Py_XDECREF(posonly);
	Py_XDECREF(vararg);
	Py_XDECREF(kwonly);
	Py_XDECREF(kwdef);
	return why;
}

static const char *fmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));

static const char *fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, len, f, ap);
	va_end(ap);
	return buf;
}

/* Sets has_signals, shape_ok and shape_reason from the module's top-level statements. The
 * last top-level definition wins, as it does when Python runs the file. */
static void check_shape(PyObject *module, cJSON *out)
{
	PyObject *body = get(module, "body"), *def = NULL;
	char name[64], buf[256];
	const char *why = NULL;
	long assigned = 0;

	if (body == NULL || !PyList_Check(body))
		goto done;
	for (Py_ssize_t i = 0; i < PyList_GET_SIZE(body); i++) {
		PyObject *st = PyList_GET_ITEM(body, i);
		if ((is(st, "FunctionDef") || is(st, "AsyncFunctionDef") || is(st, "ClassDef")) &&
		    get_str(st, "name", name, sizeof(name)) && strcmp(name, "signals") == 0)
			def = st;
		else if (is(st, "Assign") || is(st, "AnnAssign") || is(st, "AugAssign")) {
			PyObject *v = is(st, "Assign") ? get(st, "targets") : get(st, "target");
			PyObject *one = v != NULL && PyList_Check(v) && PyList_GET_SIZE(v) == 1
				? PyList_GET_ITEM(v, 0) : v;
			if (one != NULL && is(one, "Name") && get_str(one, "id", name, sizeof(name)) &&
			    strcmp(name, "signals") == 0)
				assigned = get_long(st, "lineno");
			Py_XDECREF(v);
		}
	}
	if (def == NULL && assigned > 0)
		why = fmt(buf, sizeof(buf), "'signals' is assigned at line %ld, not defined with def; write def signals(df):", assigned);
	else if (def == NULL)
		why = "no top-level 'def signals(df)'; the sandbox calls signals(df) and finds nothing";
	else if (is(def, "ClassDef"))
		why = fmt(buf, sizeof(buf), "'signals' at line %ld is a class; write def signals(df):", get_long(def, "lineno"));
	else if (is(def, "AsyncFunctionDef"))
		why = fmt(buf, sizeof(buf), "'signals' at line %ld is async; write a plain def signals(df):", get_long(def, "lineno"));
	else
		why = signature_problem(def, buf, sizeof(buf));
done:
	cJSON_AddBoolToObject(out, "has_signals", def != NULL);
	cJSON_AddBoolToObject(out, "shape_ok", def != NULL && why == NULL);
	if (why != NULL)
		cJSON_AddStringToObject(out, "shape_reason", why);
	else
		cJSON_AddNullToObject(out, "shape_reason");
	Py_XDECREF(body);
}

/* Turns the parser's exception into findings: a SyntaxError (with IndentationError and
 * TabError) is the author's to fix; MemoryError and RecursionError mean the file hit the
 * parser's own limits; anything else is reported by its type and text. Clears the error. */
static void record_parse_error(cJSON *out)
{
	PyObject *type = NULL, *value = NULL, *tb = NULL, *text = NULL;
	char msg[256] = "", name[64] = "";
	const char *s;

	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	if (type != NULL && PyType_Check(type))
		snprintf(name, sizeof(name), "%s", ((PyTypeObject *)type)->tp_name);
	if (value != NULL && PyErr_GivenExceptionMatches(type, PyExc_SyntaxError)) {
		cJSON *se = cJSON_AddObjectToObject(out, "syntax_error");
		get_text(value, "msg", msg, sizeof(msg));
		cJSON_AddNumberToObject(se, "line", (double)get_long(value, "lineno"));
		cJSON_AddNumberToObject(se, "col", (double)get_long(value, "offset"));
		cJSON_AddStringToObject(se, "msg", msg);
		goto out;
	}
	cJSON_AddNullToObject(out, "syntax_error");
	if (PyErr_GivenExceptionMatches(type, PyExc_MemoryError) ||
	    PyErr_GivenExceptionMatches(type, PyExc_RecursionError)) {
		snprintf(msg, sizeof(msg), "the parser gave up (%s): the file is nested too deeply or is too large to parse",
			 name);
		cJSON_AddStringToObject(out, "limit", msg);
		goto out;
	}
	text = value != NULL ? PyObject_Str(value) : NULL;
	s = text != NULL ? PyUnicode_AsUTF8(text) : NULL;
	snprintf(msg, sizeof(msg), "the parser failed: %s: %s", name, s ? s : "");
	cJSON_AddStringToObject(out, "parse_error", msg);
out:
	PyErr_Clear();
	Py_XDECREF(text);
	Py_XDECREF(type);
	Py_XDECREF(value);
	Py_XDECREF(tb);
}

int inspect_ast_init(void)
{
	PyConfig config;
	PyStatus st;
	PyObject *mod = NULL;
	int rc = -1;

	/* Isolated: no environment variables, no user site, no site import, no signal handlers,
	 * no bytecode written. The parser needs nothing else. */
	PyConfig_InitIsolatedConfig(&config);
	config.site_import = 0;
	config.install_signal_handlers = 0;
	config.write_bytecode = 0;
	config.parse_argv = 0;
	st = Py_InitializeFromConfig(&config);
	if (PyStatus_Exception(st))
		goto out;
	mod = PyImport_ImportModule("_ast");
	if (mod == NULL)
		goto out;
	ast_base = PyObject_GetAttrString(mod, "AST");
	if (ast_base == NULL)
		goto out;
	rc = 0;
out:
	PyErr_Clear();
	Py_XDECREF(mod);
	PyConfig_Clear(&config);
	return rc;
}

cJSON *inspect_ast_findings(const char *src)
{
	PyCompilerFlags cf = {.cf_flags = PyCF_ONLY_AST, .cf_feature_version = PY_MINOR_VERSION};
	struct walk w = {0};
	PyObject *tree = NULL;
	cJSON *out = cJSON_CreateObject();

	if (out == NULL)
		goto out;
	w.flags = cJSON_CreateArray();
	w.bound = PySet_New(NULL);
	tree = Py_CompileStringExFlags(src, "<strategy>", Py_file_input, &cf, 0);
	cJSON_AddBoolToObject(out, "parsed", tree != NULL);
	if (tree == NULL) {
		record_parse_error(out);
		cJSON_AddBoolToObject(out, "has_signals", false);
		cJSON_AddBoolToObject(out, "shape_ok", false);
		cJSON_AddNullToObject(out, "shape_reason");
		goto done;
	}
	cJSON_AddNullToObject(out, "syntax_error");
	w.collecting = true;
	walk(&w, tree);
	w.collecting = false;
	w.depth = 0;
	if (!w.too_deep)
		walk(&w, tree);
	if (w.too_deep)
		cJSON_AddStringToObject(out, "limit",
			"the syntax tree is nested deeper than " Py_STRINGIFY(INSPECT_MAX_DEPTH) " levels; no strategy needs that");
	check_shape(tree, out);
done:
	cJSON_AddItemToObject(out, "flags", w.flags);
	w.flags = NULL;
	cJSON_AddBoolToObject(out, "truncated", w.truncated);
out:
	cJSON_Delete(w.flags);
	Py_XDECREF(w.bound);
	Py_XDECREF(tree);
	PyErr_Clear();
	return out;
}
