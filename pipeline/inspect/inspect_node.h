/* inspect_node.h - reading CPython ast nodes from C: accessors and expression predicates the
 * inspect rules are written with. Every function tolerates a missing field (it clears the Python
 * error); "a new reference" results are the caller's to Py_DECREF. */
#ifndef INSPECT_NODE_H
#define INSPECT_NODE_H

#include <Python.h>
#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

/* How deep the structural comparisons of the normalisation hint may look. */
#define EXPR_DEPTH 32

/* Called for each child node; return false to stop the walk. */
typedef bool (*inspect_child_fn)(void *ctx, PyObject *child);

/* ast.AST, the base of every node; set once by inspect_ast_init in the parsing child. */
extern PyObject *inspect_ast_base;

/* The node's class name ("Import"), whether the type was named "Import" or "ast.Import". */
const char *inspect_kind(PyObject *node);

/* True if node is an AST node of class k. */
bool inspect_is(PyObject *node, const char *k);

/* True if o is an AST node (not a list, str or constant value). */
bool inspect_is_node(PyObject *o);

/* A new reference to node.name, or NULL with the error cleared. */
PyObject *inspect_get(PyObject *node, const char *name);

/* node.name as UTF-8 into buf. False when missing, not a str, or longer than buf. */
bool inspect_get_str(PyObject *node, const char *name, char *buf, size_t len);

/* node.name as UTF-8 into buf, cut at a character boundary when longer. False when missing
 * or not a str. */
bool inspect_get_text(PyObject *node, const char *name, char *buf, size_t len);

/* node.name as a C long, or -1 when missing or not an int (line and column fields). */
long inspect_get_long(PyObject *node, const char *name);

/* Calls fn on every child node of node (fields holding a node or a list of nodes), in field
 * order. Returns false if fn asked to stop. */
bool inspect_each_child(PyObject *node, inspect_child_fn fn, void *ctx);

/* A new reference to the value of keyword argument name in call, or NULL. */
PyObject *inspect_keyword_value(PyObject *call, const char *name);

/* A new reference to the first positional argument of call, or NULL. */
PyObject *inspect_first_arg(PyObject *call);

/* True if e is a literal constant equal to value (identity for True/False/None). */
bool inspect_is_const(PyObject *e, PyObject *value);

/* True if e is the integer literal n. */
bool inspect_is_int_const(PyObject *e, long n);

/* True if e is a string constant equal to one of the NULL-terminated list. */
bool inspect_is_str_const(PyObject *e, const char *const *list);

/* True for -expr or a negative numeric literal. */
bool inspect_is_negative(PyObject *e);

/* Structural equality of two small expressions: names, attributes, subscripts, constants. */
bool inspect_same_expr(PyObject *a, PyObject *b, int depth);

/* True if needle occurs (structurally) anywhere in hay. */
bool inspect_contains_expr(PyObject *hay, PyObject *needle, int depth);

/* Runs src (trusted helper code, in a fresh namespace with the builtins) and calls its function
 * fn with module (borrowed), and the int arg too when arg >= 0; the str it returns parsed as
 * JSON. A new tree (caller frees), or NULL when the helper failed, returned None or not JSON
 * (the Python error cleared). */
cJSON *inspect_py_json(const char *src, const char *fn, PyObject *module, int arg);

/* inspect_py_json with a third argument after arg (which must be >= 0): text, the upload's
 * source, as bytes. */
cJSON *inspect_py_json_text(const char *src, const char *fn, PyObject *module, int arg,
			    const char *text);

/* Helper-code lines every literal reader shares (after "import ast as _a"): _lit(node), a
 * literal's value or _NO (literal_eval reads literals only, never a call or a name), and
 * _num(x), a finite int or float, never a bool. */
#define INSPECT_PY_LITERALS                                                                      \
	"_NO = object()\n"                                                                        \
	"def _lit(n):\n"                                                                          \
	"    try:\n"                                                                              \
	"        return _a.literal_eval(n)\n"                                                     \
	"    except Exception:\n"                                                                 \
	"        return _NO\n"                                                                    \
	"def _num(x):\n"                                                                          \
	"    return isinstance(x, (int, float)) and not isinstance(x, bool) and x == x and abs(x) < 1e12\n"

#endif
