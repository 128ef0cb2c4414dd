/* inspect_ast.c - the strategy's syntax tree, from the CPython parser, walked from C against
 * the rule table. Only parses: the tree is data, nothing of the upload is ever run. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "inspect_ast.h"
#include "inspect_exits.h"
#include "inspect_hyperopt.h"
#include "inspect_neighbours.h"
#include "inspect_params.h"
#include "inspect_framework.h"
#include "inspect_node.h"
#include "inspect_norm.h"
#include "inspect_rules.h"
#include "jsonio.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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

/* Records a flag at node; for an attribute, at its name. */
/* A flag at line and col (the parser's 0-based byte offset). */
static void add_flag_at(struct walk *w, const char *code, long line, long col, const char *detail)
{
	cJSON *f;

	if (w->nflags >= INSPECT_MAX_FLAGS) {
		w->truncated = true;
		return;
	}
	f = cJSON_CreateObject();
	cJSON_AddStringToObject(f, "code", code);
	cJSON_AddNumberToObject(f, "line", (double)line);
	cJSON_AddNumberToObject(f, "col", (double)col);
	cJSON_AddStringToObject(f, "detail", detail);
	cJSON_AddItemToArray(w->flags, f);
	w->nflags++;
}

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
	if (inspect_is(node, "Attribute") && inspect_get_str(node, "attr", attr, sizeof(attr)) &&
	    (end = inspect_get_long(node, "end_col_offset")) >= (long)strlen(attr)) {
		/* Point at the attribute's name, not at the start of the chain before it. */
		line = inspect_get_long(node, "end_lineno");
		col = end - (long)strlen(attr);
	} else {
		line = inspect_get_long(node, "lineno");
		col = inspect_get_long(node, "col_offset");
	}
	cJSON_AddNumberToObject(f, "line", (double)line);
	cJSON_AddNumberToObject(f, "col", (double)col);
	cJSON_AddStringToObject(f, "detail", detail);
	cJSON_AddItemToArray(w->flags, f);
	w->nflags++;
}


/* True if the chain under e (x.rolling(20), df.groupby(k)['x'], ...) makes a moving window. */
static bool is_windowed(PyObject *e)
{
	PyObject *cur = e, *next = NULL, *func = NULL;
	char attr[64];
	bool win = false;

	Py_INCREF(cur);
	for (int i = 0; i < EXPR_DEPTH && !win; i++) {
		if (inspect_is(cur, "Call")) {
			func = inspect_get(cur, "func");
			if (func != NULL && inspect_is(func, "Attribute") && inspect_get_str(func, "attr", attr, sizeof(attr)))
				win = inspect_is_window(attr);
			next = func;
			func = NULL;
		} else if (inspect_is(cur, "Attribute") || inspect_is(cur, "Subscript")) {
			next = inspect_get(cur, "value");
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

	if (!inspect_is(e, "Call"))
		goto out;
	func = inspect_get(e, "func");
	if (func == NULL || !inspect_is(func, "Attribute") || !inspect_get_str(func, "attr", name, len) ||
	    !inspect_is_reducer(name))
		goto out;
	axis = inspect_keyword_value(e, "axis");
	if (axis == NULL && strcmp(name, "quantile") != 0)
		axis = inspect_first_arg(e);
	if (axis != NULL && (inspect_is_int_const(axis, 1) || inspect_is_str_const(axis, across)))
		goto out;
	recv = inspect_get(func, "value");
	if (recv != NULL && inspect_is(recv, "Name") && inspect_get_str(recv, "id", mod, sizeof(mod)) &&
	    (strcmp(mod, "np") == 0 || strcmp(mod, "numpy") == 0)) {
		Py_DECREF(recv);
		recv = inspect_first_arg(e);
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
	bool hit = col != NULL && inspect_contains_expr(a, col, 0);

	Py_XDECREF(col);
	if (!hit) {
		col = reducer_column(a, name, len);
		hit = col != NULL && inspect_contains_expr(b, col, 0);
		Py_XDECREF(col);
	}
	return hit;
}

static void check_import(struct walk *w, PyObject *node)
{
	PyObject *names = inspect_get(node, "names");
	char mod[256];
	const char *code;

	if (names == NULL || !PyList_Check(names))
		goto out;
	for (Py_ssize_t i = 0; i < PyList_GET_SIZE(names); i++) {
		PyObject *alias = PyList_GET_ITEM(names, i);
		if (inspect_get_str(alias, "name", mod, sizeof(mod)) && (code = inspect_import_code(mod)))
			add_flag(w, code, alias, mod);
	}
out:
	Py_XDECREF(names);
}

static void check_import_from(struct walk *w, PyObject *node)
{
	long level = inspect_get_long(node, "level");
	char mod[256] = "", rel[300];
	const char *code;

	inspect_get_str(node, "module", mod, sizeof(mod));
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

	if (!inspect_get_str(node, "id", id, sizeof(id)) || !(code = inspect_name_code(id)))
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

	if (inspect_get_str(node, "attr", attr, sizeof(attr)) && (code = inspect_attr_code(attr)))
		add_flag(w, code, node, attr);
}

static void check_call(struct walk *w, PyObject *node)
{
	static const char *const backward[] = {"backfill", "bfill", NULL};
	PyObject *func = inspect_get(node, "func"), *a = NULL;
	char attr[128], detail[160];
	const char *code;

	if (func == NULL || !inspect_is(func, "Attribute") || !inspect_get_str(func, "attr", attr, sizeof(attr)))
		goto out;
	if ((code = inspect_method_code(attr)))
		add_flag(w, code, func, attr);
	if (strcmp(attr, "shift") == 0) {
		a = inspect_first_arg(node);
		if (a == NULL)
			a = inspect_keyword_value(node, "periods");
		if (inspect_is_negative(a))
			add_flag(w, "SA401", func, attr);
	} else if (strcmp(attr, "rolling") == 0) {
		a = inspect_keyword_value(node, "center");
		if (a != NULL && inspect_is_const(a, Py_True))
			add_flag(w, "SA402", func, attr);
	} else if (!inspect_method_code(attr)) {
		a = inspect_keyword_value(node, "method");
		if (a != NULL && inspect_is_str_const(a, backward)) {
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
	if (inspect_is(node, "BinOp")) {
		op = inspect_get(node, "op");
		if (!inspect_is(op, "Sub") && !inspect_is(op, "Div"))
			goto out;
		a = inspect_get(node, "left");
		b = inspect_get(node, "right");
	} else {
		list = inspect_get(node, "comparators");
		if (list == NULL || !PyList_Check(list) || PyList_GET_SIZE(list) != 1)
			goto out;
		a = inspect_get(node, "left");
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
	if (inspect_get_str(node, "value", s, sizeof(s)) && inspect_is_dunder(s))
		add_flag(w, "SA303", node, s);
}

/* Remembers the string of a bare string statement, so a docstring that names a dunder is not
 * flagged: it is prose, like a comment. */
static void note_bare_string(struct walk *w, PyObject *node)
{
	PyObject *v = inspect_get(node, "value");

	if (v != NULL && inspect_is(v, "Constant")) {
		PyObject *s = inspect_get(v, "value");
		if (s != NULL && PyUnicode_Check(s))
			w->bare_string = v;
		Py_XDECREF(s);
	}
	Py_XDECREF(v); /* the tree still holds it, so the pointer stays valid for the walk */
}

/* Applies the rules to one node. Returns true if the node's children must not get SA404. */
static bool check(struct walk *w, PyObject *node)
{
	const char *k = inspect_kind(node);
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
	PyObject *v = inspect_get(node, field);

	if (v != NULL && PyUnicode_Check(v) && PySet_Add(w->bound, v) < 0)
		PyErr_Clear();
	Py_XDECREF(v);
}

/* First pass: every name the file binds (assignment targets, defs, parameters, imports). */
static void collect(struct walk *w, PyObject *node)
{
	PyObject *ctx = NULL;

	if (inspect_is(node, "Name")) {
		ctx = inspect_get(node, "ctx");
		if (!inspect_is(ctx, "Load"))
			bind(w, node, "id");
	} else if (inspect_is(node, "FunctionDef") || inspect_is(node, "AsyncFunctionDef") || inspect_is(node, "ClassDef")) {
		bind(w, node, "name");
	} else if (inspect_is(node, "arg")) {
		bind(w, node, "arg");
	} else if (inspect_is(node, "alias")) {
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
	inspect_each_child(node, walk_child, w);
	if (quiet)
		w->norm_off--;
out:
	w->depth--;
}

/* Why def signals is not callable as signals(df), or NULL when it is. */
static const char *signature_problem(PyObject *def, char *buf, size_t len)
{
	PyObject *args = inspect_get(def, "args"), *pos = NULL, *posonly = NULL, *vararg = NULL;
	PyObject *kwonly = NULL, *kwdef = NULL, *defaults = NULL;
	const char *why = NULL;
	Py_ssize_t n = 0, required;
	long line = inspect_get_long(def, "lineno");
	char name[64];

	if (args == NULL)
		goto out;
	pos = inspect_get(args, "args");
	posonly = inspect_get(args, "posonlyargs");
	vararg = inspect_get(args, "vararg");
	kwonly = inspect_get(args, "kwonlyargs");
	kwdef = inspect_get(args, "kw_defaults");
	defaults = inspect_get(args, "defaults");
	n = (pos && PyList_Check(pos) ? PyList_GET_SIZE(pos) : 0) +
	    (posonly && PyList_Check(posonly) ? PyList_GET_SIZE(posonly) : 0);
	/* a positional parameter with a default (signals(df, window=48)) is not one the call gives */
	required = n - (defaults && PyList_Check(defaults) ? PyList_GET_SIZE(defaults) : 0);
	if (vararg != NULL && vararg != Py_None) {
		snprintf(buf, len, "'signals' at line %ld takes *args; it must take exactly one positional parameter (df)",
			 line);
		why = buf;
		goto out;
	}
	if (n < 1 || required > 1) {
		snprintf(buf, len, "'signals' at line %ld takes %zd positional parameters without a default; it must take exactly one (df)",
			 line, n < 1 ? n : required);
		why = buf;
		goto out;
	}
	for (Py_ssize_t i = 0; kwonly && kwdef && PyList_Check(kwonly) && PyList_Check(kwdef) &&
			       i < PyList_GET_SIZE(kwonly) && i < PyList_GET_SIZE(kwdef); i++) {
		if (PyList_GET_ITEM(kwdef, i) == Py_None &&
		    inspect_get_str(PyList_GET_ITEM(kwonly, i), "arg", name, sizeof(name))) {
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
	Py_XDECREF(defaults);
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
	PyObject *body = inspect_get(module, "body"), *def = NULL;
	char name[64], buf[256];
	const char *why = NULL;
	long assigned = 0;
	cJSON *fw = inspect_framework(module);

	if (body == NULL || !PyList_Check(body))
		goto done;
	for (Py_ssize_t i = 0; i < PyList_GET_SIZE(body); i++) {
		PyObject *st = PyList_GET_ITEM(body, i);
		if ((inspect_is(st, "FunctionDef") || inspect_is(st, "AsyncFunctionDef") || inspect_is(st, "ClassDef")) &&
		    inspect_get_str(st, "name", name, sizeof(name)) && strcmp(name, "signals") == 0)
			def = st;
		else if (inspect_is(st, "Assign") || inspect_is(st, "AnnAssign") || inspect_is(st, "AugAssign")) {
			PyObject *v = inspect_is(st, "Assign") ? inspect_get(st, "targets") : inspect_get(st, "target");
			PyObject *one = v != NULL && PyList_Check(v) && PyList_GET_SIZE(v) == 1
				? PyList_GET_ITEM(v, 0) : v;
			if (one != NULL && inspect_is(one, "Name") && inspect_get_str(one, "id", name, sizeof(name)) &&
			    strcmp(name, "signals") == 0)
				assigned = inspect_get_long(st, "lineno");
			Py_XDECREF(v);
		}
	}
	if (def == NULL && assigned > 0)
		why = fmt(buf, sizeof(buf), "'signals' is assigned at line %ld, not defined with def; write def signals(df):", assigned);
	else if (def == NULL)
		why = "no top-level 'def signals(df)'; the sandbox calls signals(df) and finds nothing";
	else if (inspect_is(def, "ClassDef"))
		why = fmt(buf, sizeof(buf), "'signals' at line %ld is a class; write def signals(df):", inspect_get_long(def, "lineno"));
	else if (inspect_is(def, "AsyncFunctionDef"))
		why = fmt(buf, sizeof(buf), "'signals' at line %ld is async; write a plain def signals(df):", inspect_get_long(def, "lineno"));
	else
		why = signature_problem(def, buf, sizeof(buf));
	/* a framework class is run by the sandbox's shims when there is no signals() */
	if (def == NULL && fw != NULL)
		why = NULL;
done:
	cJSON_AddBoolToObject(out, "has_signals", def != NULL);
	cJSON_AddBoolToObject(out, "shape_ok", (def != NULL || fw != NULL) && why == NULL);
	if (fw != NULL)
		cJSON_AddItemToObject(out, "framework", fw);
	else
		cJSON_AddNullToObject(out, "framework");
	if (why != NULL)
		cJSON_AddStringToObject(out, "shape_reason", why);
	else
		cJSON_AddNullToObject(out, "shape_reason");
	Py_XDECREF(body);
}

/* VARIANTS, read as data: ast.literal_eval of the last top-level assignment's value (it
 * evaluates literals only, never a call or a name), checked, and handed back as JSON text. */
static const char variants_py[] =
	"import ast as _a, json as _j\n"
	"def _scalar(x):\n"
	"    return x is None or isinstance(x, (bool, int, float, str))\n"
	"def _value_ok(x):\n"
	"    if isinstance(x, (list, tuple)):\n"
	"        return len(x) <= 1000 and all(_scalar(y) for y in x)\n"
	"    return _scalar(x)\n"
	"def variants(mod, cap):\n"
	"    node = None\n"
	"    for st in mod.body:\n"
	"        t = st.targets if isinstance(st, _a.Assign) else [getattr(st, 'target', None)]\n"
	"        if isinstance(st, (_a.Assign, _a.AnnAssign, _a.AugAssign)) and any(\n"
	"                isinstance(x, _a.Name) and x.id == 'VARIANTS' for x in t):\n"
	"            node = st\n"
	"    if node is None:\n"
	"        return None\n"
	"    line = node.lineno\n"
	"    if not isinstance(node, _a.Assign) or node.value is None:\n"
	"        return (line, 'is not assigned with a plain =', None)\n"
	"    try:\n"
	"        v = _a.literal_eval(node.value)\n"
	"    except Exception:\n"
	"        return (line, 'is not a literal (write it out as a list of dicts of numbers, strings and booleans)', None)\n"
	"    if not isinstance(v, (list, tuple)):\n"
	"        return (line, 'is a %s, not a list of dicts' % type(v).__name__, None)\n"
	"    if len(v) == 0 or len(v) > cap:\n"
	"        return (line, 'holds %d entries; it must hold 1 to %d' % (len(v), cap), None)\n"
	"    for i, d in enumerate(v):\n"
	"        if not isinstance(d, dict):\n"
	"            return (line, 'entry %d is a %s, not a dict of keyword arguments' % (i, type(d).__name__), None)\n"
	"        for k, x in d.items():\n"
	"            if not isinstance(k, str) or not k.isidentifier():\n"
	"                return (line, 'entry %d has a key that is not a keyword name' % i, None)\n"
	"            if not _value_ok(x):\n"
	"                return (line, 'entry %d, %s: not a number, string, boolean, None or list of them' % (i, k[:40]), None)\n"
	"    try:\n"
	"        text = _j.dumps(list(v), separators=(',', ':'), allow_nan=False)\n"
	"    except Exception:\n"
	"        return (line, 'holds a number JSON cannot carry (inf or nan)', None)\n"
	"    return (line, None, text)\n";

/* Adds "variants" {line, error, params} to out (or null when VARIANTS is not assigned), and a
 * SA501 flag when its value is malformed. */
static void check_variants(struct walk *w, PyObject *module, cJSON *out)
{
	PyObject *g = PyDict_New(), *run = NULL, *fn, *r = NULL;
	cJSON *v = NULL;
	long line;

	if (!g || PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins()) < 0)
		goto out;
	run = PyRun_String(variants_py, Py_file_input, g, g);
	fn = run ? PyDict_GetItemString(g, "variants") : NULL;
	r = fn ? PyObject_CallFunction(fn, "Oi", module, INSPECT_MAX_VARIANTS) : NULL;
	if (!r || r == Py_None || !PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 3)
		goto out;
	line = PyLong_AsLong(PyTuple_GET_ITEM(r, 0));
	v = cJSON_CreateObject();
	cJSON_AddNumberToObject(v, "line", (double)line);
	if (PyUnicode_Check(PyTuple_GET_ITEM(r, 1))) {
		const char *why = PyUnicode_AsUTF8(PyTuple_GET_ITEM(r, 1));
		PyObject *at = PyObject_GetAttrString(module, "body");

		cJSON_AddStringToObject(v, "error", why ? why : "is malformed");
		cJSON_AddArrayToObject(v, "params");
		/* the flag sits on the assignment itself: line and column of its first target */
		if (at && PyList_Check(at))
			for (Py_ssize_t i = 0; i < PyList_GET_SIZE(at); i++) {
				PyObject *st = PyList_GET_ITEM(at, i);

				if (inspect_get_long(st, "lineno") == line) {
					add_flag(w, "SA501", st, why ? why : "is malformed");
					break;
				}
			}
		Py_XDECREF(at);
	} else {
		const char *text = PyUnicode_AsUTF8(PyTuple_GET_ITEM(r, 2));
		cJSON *params = text ? cJSON_Parse(text) : NULL;

		cJSON_AddNullToObject(v, "error");
		cJSON_AddItemToObject(v, "params", params ? params : cJSON_CreateArray());
	}
out:
	PyErr_Clear();
	if (v)
		cJSON_AddItemToObject(out, "variants", v);
	else
		cJSON_AddNullToObject(out, "variants");
	Py_XDECREF(r);
	Py_XDECREF(run);
	Py_XDECREF(g);
}

/* Adds "hyperopt" (inspect_hyperopt.h) to out when the module declares a parameter. */
static void check_hyperopt(PyObject *module, cJSON *out)
{
	cJSON *h = inspect_hyperopt_read(module);

	if (h)
		cJSON_AddItemToObject(out, "hyperopt", h);
}

/* Adds "exits" (inspect_exits.h) to out, or null when the reader failed; a declaration found
 * bad is the flag SA502 where it is, each value that is not a literal SA503. */
static void check_exits(struct walk *w, PyObject *module, cJSON *out)
{
	cJSON *x = inspect_exits_read(module);
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(x, "error"), *u;

	if (cJSON_IsString(e))
		add_flag_at(w, "SA502", (long)sa_json_num(x, "error_line", 0),
			    (long)sa_json_num(x, "error_col", 0), e->valuestring);
	cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(x, "unread")) {
		char what[200];

		snprintf(what, sizeof what, "%.40s %.150s", sa_json_str(u, "name", "?"),
			 sa_json_str(u, "why", "is not read"));
		add_flag_at(w, "SA503", (long)sa_json_num(u, "line", 0), (long)sa_json_num(u, "col", 0),
			    what);
	}
	if (x)
		cJSON_AddItemToObject(out, "exits", x);
	else
		cJSON_AddNullToObject(out, "exits");
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
		inspect_get_text(value, "msg", msg, sizeof(msg));
		cJSON_AddNumberToObject(se, "line", (double)inspect_get_long(value, "lineno"));
		cJSON_AddNumberToObject(se, "col", (double)inspect_get_long(value, "offset"));
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
	inspect_ast_base = PyObject_GetAttrString(mod, "AST");
	if (inspect_ast_base == NULL)
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
	else if (!cJSON_AddItemToObject(out, "normalised", inspect_norm(tree, w.bound)))
		cJSON_AddNullToObject(out, "normalised");
	check_shape(tree, out);
	check_variants(&w, tree, out);
	check_exits(&w, tree, out);
	check_hyperopt(tree, out);
	if (!cJSON_AddItemToObject(out, "parameters", inspect_params_read(tree)))
		cJSON_AddNullToObject(out, "parameters");
	if (!cJSON_AddItemToObject(out, "numeric", inspect_neighbours_read(tree, src)))
		cJSON_AddNullToObject(out, "numeric");
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
