/* inspect_framework.c - a freqtrade or backtesting.py strategy class, found in the syntax tree. */
#include <string.h>

#include "inspect_framework.h"
#include "inspect_node.h"

/* True when the module imports the top-level package name (import x, import x.y, from x...). */
static bool imports(PyObject *body, const char *name)
{
	size_t n = strlen(name);
	char mod[256];

	for (Py_ssize_t i = 0; i < PyList_GET_SIZE(body); i++) {
		PyObject *st = PyList_GET_ITEM(body, i), *names;
		bool hit = false;

		if (inspect_is(st, "ImportFrom") && inspect_get_str(st, "module", mod, sizeof mod))
			hit = !strncmp(mod, name, n) && (mod[n] == '\0' || mod[n] == '.');
		else if (inspect_is(st, "Import") && (names = inspect_get(st, "names")) != NULL) {
			for (Py_ssize_t k = 0; PyList_Check(names) && k < PyList_GET_SIZE(names); k++)
				if (inspect_get_str(PyList_GET_ITEM(names, k), "name", mod, sizeof mod) &&
				    !strncmp(mod, name, n) && (mod[n] == '\0' || mod[n] == '.'))
					hit = true;
			Py_DECREF(names);
		}
		if (hit)
			return true;
	}
	return false;
}

/* The name a base is written with: IStrategy, or the attribute of freqtrade.strategy.IStrategy. */
static bool base_named(PyObject *base, const char *name)
{
	char id[64];

	if (inspect_is(base, "Name"))
		return inspect_get_str(base, "id", id, sizeof id) && !strcmp(id, name);
	if (inspect_is(base, "Attribute"))
		return inspect_get_str(base, "attr", id, sizeof id) && !strcmp(id, name);
	return false;
}

static const char *framework_of(PyObject *cls, bool backtesting)
{
	PyObject *bases = inspect_get(cls, "bases");
	const char *kind = NULL;

	for (Py_ssize_t i = 0; bases && PyList_Check(bases) && i < PyList_GET_SIZE(bases); i++) {
		PyObject *b = PyList_GET_ITEM(bases, i);
		if (base_named(b, "IStrategy"))
			kind = "freqtrade";
		else if (backtesting && base_named(b, "Strategy"))
			kind = "backtesting";
	}
	Py_XDECREF(bases);
	return kind;
}

/* One class-level literal: name = value, as JSON (null when absent or not a literal of the type). */
static void put_literal(cJSON *o, PyObject *cls, const char *name, char type)
{
	PyObject *body = inspect_get(cls, "body"), *value = NULL;
	char id[64];

	for (Py_ssize_t i = 0; body && PyList_Check(body) && i < PyList_GET_SIZE(body); i++) {
		PyObject *st = PyList_GET_ITEM(body, i), *targets, *t;
		if (!inspect_is(st, "Assign") && !inspect_is(st, "AnnAssign"))
			continue;
		targets = inspect_is(st, "Assign") ? inspect_get(st, "targets") : inspect_get(st, "target");
		t = targets && PyList_Check(targets) && PyList_GET_SIZE(targets) == 1 ?
			PyList_GET_ITEM(targets, 0) : targets;
		if (t && inspect_is(t, "Name") && inspect_get_str(t, "id", id, sizeof id) && !strcmp(id, name)) {
			PyObject *v = inspect_get(st, "value");
			PyObject *c = v && inspect_is(v, "Constant") ? inspect_get(v, "value") : NULL;
			Py_XDECREF(value);
			value = c;
			Py_XDECREF(v);
		}
		Py_XDECREF(targets);
	}
	if (type == 's' && value && PyUnicode_Check(value) && PyUnicode_GetLength(value) < 16)
		cJSON_AddStringToObject(o, name, PyUnicode_AsUTF8(value));
	else if (type == 'i' && value && PyLong_Check(value) && !PyBool_Check(value) &&
		 PyLong_AsLong(value) >= 0 && PyLong_AsLong(value) < 1000000)
		cJSON_AddNumberToObject(o, name, (double)PyLong_AsLong(value));
	else if (type == 'b' && value && PyBool_Check(value))
		cJSON_AddBoolToObject(o, name, value == Py_True);
	else
		cJSON_AddNullToObject(o, name);
	PyErr_Clear();
	Py_XDECREF(value);
	Py_XDECREF(body);
}

/* "callbacks": the per-trade callbacks the live replay answers (custom_stoploss, custom_exit,
 * confirm_trade_entry)
 * that the class body defines with def, in the body's order. */
static void put_callbacks(cJSON *o, PyObject *cls)
{
	static const char *const names[] = { "custom_stoploss", "custom_exit",
						     "confirm_trade_entry" };
	PyObject *body = inspect_get(cls, "body");
	cJSON *a = cJSON_AddArrayToObject(o, "callbacks");
	char id[64];

	for (Py_ssize_t i = 0; a && body && PyList_Check(body) && i < PyList_GET_SIZE(body); i++) {
		PyObject *st = PyList_GET_ITEM(body, i);

		if (!inspect_is(st, "FunctionDef") || !inspect_get_str(st, "name", id, sizeof id))
			continue;
		for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
			if (!strcmp(id, names[k]))
				cJSON_AddItemToArray(a, cJSON_CreateString(names[k]));
	}
	PyErr_Clear();
	Py_XDECREF(body);
}

cJSON *inspect_framework(PyObject *module)
{
	PyObject *body = inspect_get(module, "body"), *found = NULL;
	const char *kind = NULL;
	char name[128];
	cJSON *o = NULL;

	if (!body || !PyList_Check(body))
		goto out;
	bool bt = imports(body, "backtesting");
	/* the last top-level class wins, as when Python runs the file */
	for (Py_ssize_t i = 0; i < PyList_GET_SIZE(body); i++) {
		PyObject *st = PyList_GET_ITEM(body, i);
		const char *k = inspect_is(st, "ClassDef") ? framework_of(st, bt) : NULL;
		if (k) {
			kind = k;
			found = st;
		}
	}
	if (!found || !inspect_get_str(found, "name", name, sizeof name) || !(o = cJSON_CreateObject()))
		goto out;
	cJSON_AddStringToObject(o, "kind", kind);
	cJSON_AddStringToObject(o, "class", name);
	cJSON_AddNumberToObject(o, "line", (double)inspect_get_long(found, "lineno"));
	put_literal(o, found, "timeframe", 's');
	put_literal(o, found, "startup_candle_count", 'i');
	put_literal(o, found, "can_short", 'b');
	put_callbacks(o, found);
out:
	Py_XDECREF(body);
	PyErr_Clear();
	return o;
}
