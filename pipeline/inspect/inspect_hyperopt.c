/* inspect_hyperopt.c - a freqtrade strategy's hyperopt space, read as literals. */
#include "inspect_hyperopt.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "inspect_node.h"
#include "jsonio.h"
#include "text.h"

/* A parameter's points: freqtrade's IntParameter(low, high) holds high - low + 1,
 * DecimalParameter(low, high, decimals=3) (high - low) 10^decimals + 1, CategoricalParameter
 * its categories, BooleanParameter 2, RealParameter a continuum (None), and optimize=False
 * one (it is not searched). literal_eval reads literals only, never a call or a name. */
static const char hyperopt_py[] =
	"import ast as _a, json as _j\n"
	"_KINDS = ('IntParameter', 'DecimalParameter', 'RealParameter', 'CategoricalParameter',\n"
	"          'BooleanParameter')\n"
	INSPECT_PY_LITERALS
	"def _name(f):\n"
	"    return f.id if isinstance(f, _a.Name) else f.attr if isinstance(f, _a.Attribute) else None\n"
	"def _size(kind, call):\n"
	"    kw = {k.arg: k.value for k in call.keywords if k.arg}\n"
	"    if 'optimize' in kw and _lit(kw['optimize']) is False:\n"
	"        return 1\n"
	"    if kind == 'BooleanParameter':\n"
	"        return 2\n"
	"    if kind == 'RealParameter':\n"
	"        return None\n"
	"    if kind == 'CategoricalParameter':\n"
	"        c = _lit(call.args[0]) if call.args else _lit(kw['categories']) if 'categories' in kw else _NO\n"
	"        return len(c) if isinstance(c, (list, tuple)) and 0 < len(c) <= 100000 else None\n"
	"    args = [_lit(a) for a in call.args]\n"
	"    lo = hi = _NO\n"
	"    if len(args) >= 2:\n"
	"        lo, hi = args[0], args[1]\n"
	"    elif len(args) == 1 and isinstance(args[0], (list, tuple)) and len(args[0]) == 2:\n"
	"        lo, hi = args[0]\n"
	"    lo = _lit(kw['low']) if 'low' in kw else lo\n"
	"    hi = _lit(kw['high']) if 'high' in kw else hi\n"
	"    if not (_num(lo) and _num(hi)) or hi < lo:\n"
	"        return None\n"
	"    if kind == 'IntParameter':\n"
	"        return int(hi) - int(lo) + 1\n"
	"    dec = _lit(kw['decimals']) if 'decimals' in kw else 3\n"
	"    if not isinstance(dec, int) or isinstance(dec, bool) or not 0 <= dec <= 12:\n"
	"        return None\n"
	"    return int(round((hi - lo) * 10 ** dec)) + 1\n"
	"def hyperopt(mod, cap):\n"
	"    out = []\n"
	"    for node in _a.walk(mod):\n"
	"        if not (isinstance(node, _a.Assign) and isinstance(node.value, _a.Call)):\n"
	"            continue\n"
	"        kind = _name(node.value.func)\n"
	"        if kind not in _KINDS:\n"
	"            continue\n"
	"        t = node.targets[0]\n"
	"        name = t.id if isinstance(t, _a.Name) else t.attr if isinstance(t, _a.Attribute) else '?'\n"
	"        out.append({'name': name[:64], 'kind': kind, 'line': node.lineno,\n"
	"                    'size': _size(kind, node.value)})\n"
	"        if len(out) > cap:\n"
	"            break\n"
	"    out.sort(key=lambda p: p['line'])\n"
	"    return _j.dumps(out) if out else None\n";

cJSON *inspect_hyperopt_read(PyObject *module)
{
	return inspect_py_json(hyperopt_py, "hyperopt", module, INSPECT_MAX_PARAMS);
}

/* One parameter rebuilt from the child's, or NULL when it is not one. */
static cJSON *take_param(const cJSON *p)
{
	static const char *const kinds[] = { "IntParameter", "DecimalParameter", "RealParameter",
					     "CategoricalParameter", "BooleanParameter" };
	const char *name = sa_json_str(p, "name", NULL), *kind = sa_json_str(p, "kind", "");
	const cJSON *size = cJSON_GetObjectItemCaseSensitive(p, "size");
	double line = sa_json_num(p, "line", NAN), n = sa_json_num(p, "size", NAN);
	const char *k = NULL;
	cJSON *o;

	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (!strcmp(kind, kinds[i]))
			k = kinds[i];
	if (!k || !name || strlen(name) > 64 || !sa_utf8_valid(name, strlen(name), NULL) ||
	    !(line >= 1 && line < 1e9) || !(cJSON_IsNull(size) || (n >= 1 && n < 1e30 && n == floor(n))))
		return NULL;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddStringToObject(o, "kind", k);
	cJSON_AddNumberToObject(o, "line", line);
	if (cJSON_IsNull(size))
		cJSON_AddNullToObject(o, "size");
	else
		cJSON_AddNumberToObject(o, "size", n);
	return o;
}

cJSON *inspect_hyperopt_take(const cJSON *found)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(found, "hyperopt"), *p;
	const cJSON *items = cJSON_IsArray(h) ? h : NULL;
	cJSON *o = cJSON_CreateObject(), *list;
	double grid = 1;
	bool known = true;
	int n = 0;

	if (!o)
		return NULL;
	cJSON_AddBoolToObject(o, "declared", cJSON_IsArray(h) && cJSON_GetArraySize(h) > 0);
	list = cJSON_AddArrayToObject(o, "parameters");
	cJSON_ArrayForEach(p, items) {
		cJSON *q;

		if (n == INSPECT_MAX_PARAMS)
			break;
		q = take_param(p);
		if (!q)
			continue;
		if (cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(q, "size")))
			known = false;
		else
			grid *= sa_json_num(q, "size", 1);
		cJSON_AddItemToArray(list, q);
		n++;
	}
	if (known && n > 0 && isfinite(grid))
		cJSON_AddNumberToObject(o, "grid", grid);
	else
		cJSON_AddNullToObject(o, "grid");
	cJSON_AddBoolToObject(o, "truncated", cJSON_IsArray(h) && cJSON_GetArraySize(h) > INSPECT_MAX_PARAMS);
	return o;
}
