/* inspect_neighbours.c - the audited parameters' neighbourhood: which numeric parameters move,
 * to which values, and the parameter sets that run them (inspect_neighbours.h). */
#include "inspect_neighbours.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "inspect_node.h"
#include "jsonio.h"
#include "text.h"

/* signals()'s keyword defaults (positional ones with a default, keyword-only ones; df, the
 * first, never) and the numbers written in its body and in the bodies of the module's
 * functions it calls (transitively, in the order first called), each in source order, or,
 * when the module defines no signals(), the framework class the run adapts (the one freqtrade
 * IStrategy or backtesting.py Strategy subclass no other of the file derives from): a
 * backtesting.py class's attributes, then the numbers written in the methods that make its
 * signals (freqtrade's populate_indicators, populate_entry_trend, populate_exit_trend and
 * their v2 names; backtesting.py's init and next; a method the class inherits from a class of
 * the file as the class resolves it) and in the methods (self.name(...)) and module functions
 * they call, the same way; declared parameters come first, so the cap keeps them (a freqtrade
 * class's hyperopt parameters are put before the numbers by inspect_neighbours_sets). Each
 * literal int or float (never a bool), finite. A number written in a body
 * counts unless it is 0 or 1 (identities, signal values, a step of one), is itself a
 * subscript's index (iloc[-1], x[2]), is a position on the clock or the calendar (compared
 * with, or in an isin() of, an hour, a weekday, a month...: a category whose neighbours are
 * other rules, not nearby values; an argument of, or compared with, a date, time, timedelta
 * or Timestamp built, or one of freqtrade's timeframe_to_* helpers), spans lines, or is not a plain decimal token in the
 * source (hex, octal, binary): named "@LINE:COL" (COL the byte of its line it starts at, from
 * 1), the position the sandbox rewrites (sandbox/inside/sbi_literals.h). */
static const char numeric_py[] =
	"import ast as _a, json as _j, re as _re\n"
	INSPECT_PY_LITERALS
	"def _row(name, node, frm):\n"
	"    v = _lit(node)\n"
	"    if not _num(v) or not name.isidentifier() or name.startswith('_'):\n"
	"        return None\n"
	"    return {'name': name[:64], 'value': v, 'integer': isinstance(v, int),\n"
	"            'line': getattr(node, 'lineno', 0), 'from': frm}\n"
	"def _signals(fn):\n"
	"    a, out = fn.args, []\n"
	"    pos = a.posonlyargs + a.args\n"
	"    for arg, d in zip(pos[len(pos) - len(a.defaults):], a.defaults):\n"
	"        if arg is not pos[0]:\n"
	"            out.append(_row(arg.arg, d, 'signals'))\n"
	"    for arg, d in zip(a.kwonlyargs, a.kw_defaults):\n"
	"        if d is not None:\n"
	"            out.append(_row(arg.arg, d, 'signals'))\n"
	"    return out\n"
	"def _is_bt(c):\n"
	"    return any((isinstance(b, _a.Name) and b.id == 'Strategy') or\n"
	"               (isinstance(b, _a.Attribute) and b.attr == 'Strategy') for b in c.bases)\n"
	"def _class(c):\n"
	"    out = []\n"
	"    for st in c.body:\n"
	"        if isinstance(st, _a.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], _a.Name):\n"
	"            out.append(_row(st.targets[0].id, st.value, 'class'))\n"
	"        elif isinstance(st, _a.AnnAssign) and st.value is not None and isinstance(st.target, _a.Name):\n"
	"            out.append(_row(st.target.id, st.value, 'class'))\n"
	"    return out\n"
	"_PLAIN = _re.compile(rb'(?:[0-9][0-9_]*(?:\\.[0-9_]*)?|\\.[0-9][0-9_]*)(?:[eE][+-]?[0-9][0-9_]*)?')\n"
	"def _callee(n, funcs, meths):\n"
	"    f = n.func\n"
	"    if isinstance(f, _a.Name):\n"
	"        return funcs.get(f.id)\n"
	"    if isinstance(f, _a.Attribute) and isinstance(f.value, _a.Name) and f.value.id == 'self':\n"
	"        return meths.get(f.attr)\n"
	"    return None\n"
	"def _order(fns, mod, meths):\n"
	"    funcs = {s.name: s for s in mod.body if isinstance(s, _a.FunctionDef)}\n"
	"    order, seen = list(fns), set(id(f) for f in fns)\n"
	"    for f in order:\n"
	"        calls = sorted((((n.lineno, n.col_offset), _callee(n, funcs, meths)) for st in f.body\n"
	"                        for n in _a.walk(st) if isinstance(n, _a.Call)), key=lambda x: x[0])\n"
	"        for _p, g in calls:\n"
	"            if g is not None and id(g) not in seen:\n"
	"                seen.add(id(g))\n"
	"                order.append(g)\n"
	"    return order\n"
	"def _index(n, up):\n"
	"    p = up.get(n)\n"
	"    if isinstance(p, _a.UnaryOp):\n"
	"        n, p = p, up.get(p)\n"
	"    if isinstance(p, _a.Tuple):\n"
	"        n, p = p, up.get(p)\n"
	"    return isinstance(p, _a.Subscript) and p.slice is n\n"
	"_CAL = {'hour', 'minute', 'second', 'dayofweek', 'day_of_week', 'weekday', 'day', 'month',\n"
	"        'dayofyear', 'day_of_year', 'quarter', 'week', 'weekofyear', 'year', 'isoweekday'}\n"
	"_CALFN = {'datetime', 'date', 'time', 'timedelta', 'Timestamp', 'Timedelta', 'DateOffset',\n"
	"          'to_datetime', 'timeframe_to_minutes', 'timeframe_to_seconds', 'timeframe_to_msecs',\n"
	"          'timeframe_to_prev_date', 'timeframe_to_next_date'}\n"
	"def _fname(f):\n"
	"    return f.id if isinstance(f, _a.Name) else f.attr if isinstance(f, _a.Attribute) else ''\n"
	"def _cal(n):\n"
	"    if isinstance(n, _a.Call) and _fname(n.func) in _CALFN:\n"
	"        return True\n"
	"    if isinstance(n, _a.Call):\n"
	"        n = n.func\n"
	"    return isinstance(n, _a.Attribute) and n.attr in _CAL\n"
	"def _calendar(n, up):\n"
	"    p = up.get(n)\n"
	"    while isinstance(p, (_a.UnaryOp, _a.Tuple, _a.List, _a.Set)):\n"
	"        p = up.get(p)\n"
	"    if isinstance(p, _a.keyword):\n"
	"        p = up.get(p)\n"
	"    if isinstance(p, _a.Call) and isinstance(p.func, _a.Attribute) and p.func.attr == 'isin':\n"
	"        return _cal(p.func.value)\n"
	"    if isinstance(p, _a.Call) and _fname(p.func) in _CALFN:\n"
	"        return True\n"
	"    return isinstance(p, _a.Compare) and any(_cal(x) for x in [p.left] + p.comparators)\n"
	"def _literals(fns, mod, lines, meths):\n"
	"    out = []\n"
	"    for f in _order(fns, mod, meths):\n"
	"        up, found = {}, []\n"
	"        for st in f.body:\n"
	"            for n in _a.walk(st):\n"
	"                for c in _a.iter_child_nodes(n):\n"
	"                    up[c] = n\n"
	"                if isinstance(n, _a.Constant) and _num(n.value) and n.value not in (0, 1)\\\n"
	"                        and n.lineno == n.end_lineno and not _index(n, up)\\\n"
	"                        and not _calendar(n, up):\n"
	"                    found.append(n)\n"
	"        for n in sorted(found, key=lambda n: (n.lineno, n.col_offset)):\n"
	"            if n.lineno > len(lines) or not _PLAIN.fullmatch(lines[n.lineno - 1][n.col_offset:n.end_col_offset]):\n"
	"                continue\n"
	"            out.append({'name': '@%d:%d' % (n.lineno, n.col_offset + 1), 'value': n.value,\n"
	"                        'integer': isinstance(n.value, int), 'line': n.lineno, 'from': 'literal'})\n"
	"    return out\n"
	"_FT = ('populate_indicators', 'populate_entry_trend', 'populate_exit_trend',\n"
	"       'populate_buy_trend', 'populate_sell_trend')\n"
	"_BT = ('init', 'next')\n"
	"def _kind(c, local, seen=()):\n"
	"    for b in c.bases:\n"
	"        n = b.id if isinstance(b, _a.Name) else b.attr if isinstance(b, _a.Attribute) else ''\n"
	"        if n == 'IStrategy':\n"
	"            return 'ft'\n"
	"        if n == 'Strategy':\n"
	"            return 'bt'\n"
	"        if n in local and n not in seen:\n"
	"            k = _kind(local[n], local, seen + (c.name,))\n"
	"            if k:\n"
	"                return k\n"
	"    return None\n"
	"def _meths(c, local, seen=()):\n"
	"    out = {}\n"
	"    for b in reversed(c.bases):\n"
	"        if isinstance(b, _a.Name) and b.id in local and b.id not in seen:\n"
	"            out.update(_meths(local[b.id], local, seen + (c.name,)))\n"
	"    out.update({s.name: s for s in c.body if isinstance(s, _a.FunctionDef)})\n"
	"    return out\n"
	"def _framework(mod, lines):\n"
	"    local = {c.name: c for c in mod.body if isinstance(c, _a.ClassDef)}\n"
	"    strat = [c for c in local.values() if _kind(c, local)]\n"
	"    bases = {b.id for c in strat for b in c.bases if isinstance(b, _a.Name)}\n"
	"    leaves = [c for c in strat if c.name not in bases]\n"
	"    if len(leaves) != 1:\n"
	"        return []\n"
	"    c = leaves[0]\n"
	"    meths = _meths(c, local)\n"
	"    start = [meths[m] for m in (_FT if _kind(c, local) == 'ft' else _BT) if m in meths]\n"
	"    return _literals(start, mod, lines, meths) if start else []\n"
	"def numeric(mod, cap, src):\n"
	"    fns = [s for s in mod.body if isinstance(s, _a.FunctionDef) and s.name == 'signals']\n"
	"    if fns:\n"
	"        rows = _signals(fns[-1]) + _literals(fns[-1:], mod, src.splitlines(), {})\n"
	"    else:\n"
	"        rows = [r for c in mod.body if isinstance(c, _a.ClassDef) and _is_bt(c) for r in _class(c)]\n"
	"        rows += _framework(mod, src.splitlines())\n"
	"    rows = [r for r in rows if r is not None][:cap]\n"
	"    return _j.dumps(rows) if rows else None\n";

/* The child reads at most this many; the host moves INSPECT_NB_MAX_PARAMS of them. */
#define NB_READ_CAP 64

static const double nb_mult[INSPECT_NB_LEVELS] = { 0.8, 0.9, 1.1, 1.2 };
static const double nb_step[INSPECT_NB_LEVELS] = { -0.2, -0.1, 0.1, 0.2 };

cJSON *inspect_neighbours_read(PyObject *module, const char *src)
{
	return inspect_py_json_text(numeric_py, "numeric", module, NB_READ_CAP, src);
}

static bool name_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n > 0 && n <= 64 && !(s[0] >= '0' && s[0] <= '9') && s[0] != '_' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

/* A literal's name: "@LINE:COL", both whole numbers from 1 (the sandbox reads it so). */
static bool literal_name_ok(const char *s)
{
	size_t a, b;

	if (!s || s[0] != '@')
		return false;
	a = strspn(s + 1, "0123456789");
	if (a == 0 || a > 7 || s[1] == '0' || s[1 + a] != ':')
		return false;
	b = strspn(s + 2 + a, "0123456789");
	return b > 0 && b <= 7 && s[2 + a] != '0' && s[2 + a + b] == '\0';
}

/* One row rebuilt from the child's (or from a freqtrade value), or NULL when it is not one. */
static cJSON *param_row(const char *name, double v, bool integer, double line, const char *from)
{
	cJSON *o;

	bool named = strcmp(from, "literal") ? name_ok(name) : literal_name_ok(name) && v > 0;

	if (!named || !isfinite(v) || fabs(v) >= 1e12 || (integer && v != floor(v)) ||
	    !(line >= 0 && line < 1e9))
		return NULL;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddStringToObject(o, "from", from);
	cJSON_AddNumberToObject(o, "value", v);
	cJSON_AddBoolToObject(o, "integer", integer);
	cJSON_AddNumberToObject(o, "line", line);
	return o;
}

cJSON *inspect_neighbours_take(const cJSON *found)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(found, "numeric"), *p;
	cJSON *o = cJSON_CreateObject(), *list;
	int k = 0;

	if (!o)
		return NULL;
	list = cJSON_AddArrayToObject(o, "parameters");
	if (!cJSON_IsArray(n))
		n = NULL;
	cJSON_ArrayForEach(p, n) {
		const char *from = sa_json_str(p, "from", "");
		cJSON *row;

		if (k == NB_READ_CAP)
			break;
		if (strcmp(from, "signals") && strcmp(from, "class") && strcmp(from, "literal"))
			continue;
		row = param_row(sa_json_str(p, "name", NULL), sa_json_num(p, "value", NAN),
				sa_json_bool(p, "integer", false), sa_json_num(p, "line", NAN), from);
		if (row) {
			cJSON_AddItemToArray(list, row);
			k++;
		}
	}
	return o;
}

/* The numeric kind of a freqtrade parameter named name in hyperopt_space, or NULL. */
static const char *ft_kind(const cJSON *s, const char *name)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(s, "hyperopt_space"), "parameters")) {
		const char *k = sa_json_str(p, "kind", "");

		if (strcmp(sa_json_str(p, "name", ""), name))
			continue;
		if (!strcmp(k, "IntParameter") || !strcmp(k, "DecimalParameter") || !strcmp(k, "RealParameter"))
			return k;
		return NULL;
	}
	return NULL;
}

/* Adds row to list before its first literal row (at the end when there is none). */
static void add_before_literals(cJSON *list, cJSON *row)
{
	int i = 0;
	const cJSON *r;

	cJSON_ArrayForEach(r, list) {
		if (!strcmp(sa_json_str(r, "from", ""), "literal")) {
			cJSON_InsertItemInArray(list, i, row);
			return;
		}
		i++;
	}
	cJSON_AddItemToArray(list, row);
}

/* Removes list's last row when it is a literal (a declared parameter takes its place). */
static void drop_last_literal(cJSON *list)
{
	int n = cJSON_GetArraySize(list);
	const cJSON *last = cJSON_GetArrayItem(list, n - 1);

	if (last && !strcmp(sa_json_str(last, "from", ""), "literal"))
		cJSON_DeleteItemFromArray(list, n - 1);
}

/* Replaces the freqtrade rows of list with the class's numeric parameters at their values,
 * before the numbers written in its methods (declared parameters first: the cap keeps them). */
static void freqtrade_rows(const cJSON *s, cJSON *list)
{
	const cJSON *v;
	cJSON *r = list->child;

	while (r) {
		cJSON *next = r->next;

		if (!strcmp(sa_json_str(r, "from", ""), "freqtrade"))
			cJSON_Delete(cJSON_DetachItemViaPointer(list, r));
		r = next;
	}
	if (strcmp(sa_json_str(s, "framework", ""), "freqtrade"))
		return;
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(s, "parameters"), "values")) {
		const char *name = sa_json_str(v, "name", NULL), *kind = name ? ft_kind(s, name) : NULL;
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(v, "value");
		cJSON *row;

		if (!kind || !cJSON_IsNumber(x))
			continue;
		row = param_row(name, x->valuedouble, !strcmp(kind, "IntParameter"), 0, "freqtrade");
		if (row && cJSON_GetArraySize(list) >= NB_READ_CAP)
			drop_last_literal(list);
		if (row && cJSON_GetArraySize(list) < NB_READ_CAP)
			add_before_literals(list, row);
		else
			cJSON_Delete(row);
	}
}

/* The neighbours of v into out[INSPECT_NB_LEVELS] (NAN: dropped). */
static void neighbours(double v, bool integer, double out[INSPECT_NB_LEVELS])
{
	double sg = v > 0 ? 1 : -1;

	for (int i = 0; i < INSPECT_NB_LEVELS; i++)
		out[i] = integer ? round(v * nb_mult[i]) : v * nb_mult[i];
	if (integer) {
		/* each inner one off the centre, each outer one past its inner one */
		if (out[1] == v)
			out[1] = v - sg;
		if (out[2] == v)
			out[2] = v + sg;
		if (sg * out[0] >= sg * out[1])
			out[0] = out[1] - sg;
		if (sg * out[3] <= sg * out[2])
			out[3] = out[2] + sg;
	}
	for (int i = 0; i < INSPECT_NB_LEVELS; i++)
		if (out[i] == 0 || (out[i] > 0) != (v > 0) || !isfinite(out[i]))
			out[i] = NAN;
}

/* Adds one set: its keyword arguments to params, its nominal moves to sets. */
static void add_set(cJSON *sets, cJSON *params, const char *const *names, const double *steps,
		    const double *values, int k)
{
	cJSON *st = cJSON_CreateObject(), *sv = cJSON_CreateObject(), *pv = cJSON_CreateObject();

	cJSON_AddNumberToObject(st, "set", (double)cJSON_GetArraySize(sets));
	for (int i = 0; i < k; i++) {
		cJSON_AddNumberToObject(sv, names[i], steps[i]);
		cJSON_AddNumberToObject(pv, names[i], values[i]);
	}
	cJSON_AddItemToObject(st, "steps", sv);
	cJSON_AddItemToArray(sets, st);
	cJSON_AddItemToArray(params, pv);
}

void inspect_neighbours_sets(cJSON *s)
{
	cJSON *o = cJSON_GetObjectItemCaseSensitive(s, "neighbourhood"), *list, *p, *sets, *params;
	const char *mv_name[INSPECT_NB_MAX_PARAMS];
	double mv_nb[INSPECT_NB_MAX_PARAMS][INSPECT_NB_LEVELS];
	int m = 0, total = 0;

	if (!cJSON_IsObject(o))
		return;
	list = cJSON_GetObjectItemCaseSensitive(o, "parameters");
	if (!cJSON_IsArray(list))
		return;
	freqtrade_rows(s, list);
	cJSON_ArrayForEach(p, list) {
		double v = sa_json_num(p, "value", 0), nb[INSPECT_NB_LEVELS];
		bool integer = sa_json_bool(p, "integer", false), any = false;
		cJSON *arr;

		cJSON_DeleteItemFromObjectCaseSensitive(p, "moved");
		cJSON_DeleteItemFromObjectCaseSensitive(p, "neighbours");
		total++;
		neighbours(v, integer, nb);
		arr = cJSON_CreateArray();
		for (int i = 0; i < INSPECT_NB_LEVELS; i++) {
			cJSON *e = cJSON_CreateObject();

			cJSON_AddNumberToObject(e, "step", nb_step[i]);
			if (v != 0 && isfinite(nb[i])) {
				cJSON_AddNumberToObject(e, "value", nb[i]);
				any = true;
			} else {
				cJSON_AddNullToObject(e, "value");
			}
			cJSON_AddItemToArray(arr, e);
		}
		any = any && v != 0 && m < INSPECT_NB_MAX_PARAMS;
		cJSON_AddBoolToObject(p, "moved", any);
		cJSON_AddItemToObject(p, "neighbours", arr);
		if (!any)
			continue;
		mv_name[m] = sa_json_str(p, "name", "");
		memcpy(mv_nb[m], nb, sizeof nb);
		m++;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(o, "declared");
	cJSON_DeleteItemFromObjectCaseSensitive(o, "grid");
	cJSON_DeleteItemFromObjectCaseSensitive(o, "truncated");
	cJSON_DeleteItemFromObjectCaseSensitive(o, "sets");
	cJSON_DeleteItemFromObjectCaseSensitive(o, "params");
	cJSON_DeleteItemFromObjectCaseSensitive(o, "error");
	cJSON_AddBoolToObject(o, "declared", m > 0);
	cJSON_AddBoolToObject(o, "grid", m == 2);
	cJSON_AddBoolToObject(o, "truncated", total > m && m == INSPECT_NB_MAX_PARAMS);
	sets = cJSON_AddArrayToObject(o, "sets");
	params = cJSON_AddArrayToObject(o, "params");
	cJSON_AddNullToObject(o, "error");
	if (m == 0)
		return;
	add_set(sets, params, NULL, NULL, NULL, 0);
	if (m == 2) {
		/* the whole 5 x 5 grid, the centre once */
		for (int a = -1; a < INSPECT_NB_LEVELS; a++)
			for (int b = -1; b < INSPECT_NB_LEVELS; b++) {
				const char *nm[2];
				double st[2], va[2];
				int k = 0;

				if ((a >= 0 && !isfinite(mv_nb[0][a])) || (b >= 0 && !isfinite(mv_nb[1][b])))
					continue;
				if (a >= 0) {
					nm[k] = mv_name[0], st[k] = nb_step[a], va[k++] = mv_nb[0][a];
				}
				if (b >= 0) {
					nm[k] = mv_name[1], st[k] = nb_step[b], va[k++] = mv_nb[1][b];
				}
				if (k > 0)
					add_set(sets, params, nm, st, va, k);
			}
		return;
	}
	for (int i = 0; i < m; i++)
		for (int l = 0; l < INSPECT_NB_LEVELS; l++)
			if (isfinite(mv_nb[i][l]))
				add_set(sets, params, &mv_name[i], &nb_step[l], &mv_nb[i][l], 1);
}
