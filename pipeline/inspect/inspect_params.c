/* inspect_params.c - a freqtrade class's parameters: read from the tree with ast.literal_eval in
 * the parsing child (literals only, never a call or a name), then given the values freqtrade's
 * backtest gives them, the parameter file beside the strategy included, in the parent. */
#include "inspect_params.h"
#include "inspect_node.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exits.h"
#include "fileio.h"
#include "jsonio.h"
#include "text.h"

/* The parameter file's cap: hyperopt writes a few hundred bytes. */
#define PARAMS_FILE_CAP ((size_t)64 * 1024)
/* A parameter's name, a space's or a string value's longest kept form. */
#define NAME_MAX_LEN 64

static const char params_py[] =
	"import ast as _a, json as _j, math as _m\n"
	"KINDS = ('IntParameter', 'DecimalParameter', 'RealParameter', 'CategoricalParameter', 'BooleanParameter')\n"
	"SPACES = ('buy', 'sell', 'protection')\n"
	"def name_of(f):\n"
	"    return f.id if isinstance(f, _a.Name) else f.attr if isinstance(f, _a.Attribute) else None\n"
	"def is_istrategy(c):\n"
	"    return any(name_of(b) == 'IStrategy' for b in c.bases)\n"
	"def plain(v):\n"
	"    if v is None or isinstance(v, bool) or isinstance(v, int) and abs(v) < 2 ** 53:\n"
	"        return True\n"
	"    if isinstance(v, float):\n"
	"        return _m.isfinite(v)\n"
	"    return isinstance(v, str) and len(v) <= 64\n"
	"def lit(node):\n"
	"    try:\n"
	"        v = _a.literal_eval(node)\n"
	"    except Exception:\n"
	"        return None, False\n"
	"    return (v, True) if plain(v) else (None, False)\n"
	"def keyword(call, name):\n"
	"    for k in call.keywords:\n"
	"        if k.arg == name:\n"
	"            return k.value\n"
	"    return None\n"
	"def declared(call, kind, name, line):\n"
	"    sp = keyword(call, 'space')\n"
	"    space, ok = lit(sp) if sp is not None else (None, True)\n"
	"    if not ok or space not in SPACES + (None,):\n"
	"        space = None\n"
	"    if space is None:\n"
	"        space = next((s for s in SPACES if name.startswith(s + '_')), None)\n"
	"    ld = keyword(call, 'load')\n"
	"    load = lit(ld)[0] is not False if ld is not None else True\n"
	"    d = keyword(call, 'default')\n"
	"    if d is not None:\n"
	"        default, ok = lit(d)\n"
	"    elif kind == 'BooleanParameter':\n"
	"        default, ok = True, True\n"
	"    elif kind == 'CategoricalParameter' and call.args and isinstance(call.args[0], (_a.List, _a.Tuple)) and call.args[0].elts:\n"
	"        default, ok = lit(call.args[0].elts[0])\n"
	"    else:\n"
	"        default, ok = None, False\n"
	"    if ok and kind == 'DecimalParameter' and isinstance(default, (int, float)) and not isinstance(default, bool):\n"
	"        dec = keyword(call, 'decimals')\n"
	"        n, ok2 = lit(dec) if dec is not None else (3, True)\n"
	"        if ok2 and isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 12:\n"
	"            default = round(default, n)\n"
	"    return {'name': name, 'space': space, 'default': default, 'literal': ok, 'load': load, 'line': line}\n"
	"def params(mod):\n"
	"    cls = None\n"
	"    for st in mod.body:\n"
	"        if isinstance(st, _a.ClassDef) and is_istrategy(st):\n"
	"            cls = st\n"
	"    if cls is None:\n"
	"        return None\n"
	"    out = {'declared': [], 'given': {}}\n"
	"    for st in cls.body:\n"
	"        if not isinstance(st, (_a.Assign, _a.AnnAssign)) or st.value is None:\n"
	"            continue\n"
	"        targets = st.targets if isinstance(st, _a.Assign) else [st.target]\n"
	"        if len(targets) != 1 or not isinstance(targets[0], _a.Name):\n"
	"            continue\n"
	"        name, v = targets[0].id, st.value\n"
	"        if isinstance(v, _a.Call) and name_of(v.func) in KINDS:\n"
	"            out['declared'] = [d for d in out['declared'] if d['name'] != name]\n"
	"            out['declared'].append(declared(v, name_of(v.func), name, st.lineno))\n"
	"        elif name in ('buy_params', 'sell_params', 'protection_params'):\n"
	"            try:\n"
	"                g = _a.literal_eval(v)\n"
	"            except Exception:\n"
	"                g = None\n"
	"            if isinstance(g, dict):\n"
	"                out['given'][name[:-7]] = {k: x if plain(x) else None for k, x in g.items() if isinstance(k, str)}\n"
	"    out['declared'] = out['declared'][:256]\n"
	"    return _j.dumps(out, allow_nan=False)\n";

cJSON *inspect_params_read(PyObject *module)
{
	return inspect_py_json(params_py, "params", module, -1);
}

/* A copy of a parameter value the child or the file gave: a finite number, a bool, a short
 * valid UTF-8 string; anything else null. */
static cJSON *plain_value(const cJSON *v)
{
	if (cJSON_IsBool(v))
		return cJSON_CreateBool(cJSON_IsTrue(v));
	if (cJSON_IsNumber(v) && v->valuedouble == v->valuedouble && v->valuedouble < 1e300 &&
	    v->valuedouble > -1e300)
		return cJSON_CreateNumber(v->valuedouble);
	if (cJSON_IsString(v) && strlen(v->valuestring) <= NAME_MAX_LEN &&
	    sa_utf8_valid(v->valuestring, strlen(v->valuestring), NULL))
		return cJSON_CreateString(v->valuestring);
	return cJSON_CreateNull();
}

/* True for a Python identifier of at most NAME_MAX_LEN ASCII characters. */
static bool identifier(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n == 0 || n > NAME_MAX_LEN || (s[0] >= '0' && s[0] <= '9'))
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

static const char *space_of(const cJSON *d)
{
	static const char *const spaces[] = { "buy", "sell", "protection" };
	const char *s = sa_json_str(d, "space", "");

	for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
		if (!strcmp(s, spaces[i]))
			return spaces[i];
	return NULL;
}

cJSON *inspect_params_take(const cJSON *found)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(found, "parameters"), *d;
	const cJSON *given = cJSON_GetObjectItemCaseSensitive(p, "given");
	cJSON *o = cJSON_CreateObject(), *values = cJSON_CreateArray();
	int n = 0;

	cJSON_AddNullToObject(o, "file");
	cJSON_AddNullToObject(o, "file_error");
	cJSON_AddArrayToObject(o, "exits_from_file");
	cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(p, "declared")) {
		const char *name = sa_json_str(d, "name", NULL), *space = space_of(d);
		const cJSON *g = space ? cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(given, space), name) : NULL;
		bool load = sa_json_bool(d, "load", true);
		char from[32] = "default";
		cJSON *row;

		if (!identifier(name) || n++ >= 256)
			continue;
		row = cJSON_CreateObject();
		cJSON_AddStringToObject(row, "name", name);
		if (space)
			cJSON_AddStringToObject(row, "space", space);
		else
			cJSON_AddNullToObject(row, "space");
		if (g && load) {
			snprintf(from, sizeof from, "%s_params", space);
			cJSON_AddItemToObject(row, "value", plain_value(g));
		} else {
			cJSON_AddItemToObject(row, "value", sa_json_bool(d, "literal", false) ?
					      plain_value(cJSON_GetObjectItemCaseSensitive(d, "default")) :
					      cJSON_CreateNull());
		}
		cJSON_AddStringToObject(row, "from", from);
		cJSON_AddBoolToObject(row, "load", load);
		cJSON_AddItemToArray(values, row);
	}
	cJSON_AddItemToObject(o, "values", values);
	return o;
}

/* Sets o[key] to item (taking it), keeping the key's place when it is already there. */
static void put(cJSON *o, const char *key, cJSON *item)
{
	if (!cJSON_ReplaceItemInObjectCaseSensitive(o, key, item))
		cJSON_AddItemToObject(o, key, item);
}

/* Reads path's .json sibling into *buf (caller frees). Returns its read status. */
static enum sa_read_status read_sibling(const char *path, char *json, size_t cap, char **buf,
					size_t *len)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	size_t stem = dot && dot > (slash ? slash + 1 : path) ? (size_t)(dot - path) : strlen(path);

	if (stem + sizeof ".json" > cap)
		return SA_READ_MISSING;
	memcpy(json, path, stem);
	memcpy(json + stem, ".json", sizeof ".json");
	return sa_read_file(json, PARAMS_FILE_CAP, buf, len);
}

/* The file's params values over s's parameters.values. */
static void file_values(cJSON *params, const cJSON *fp)
{
	cJSON *row;

	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(params, "values")) {
		const char *space = space_of(row);
		const cJSON *v = space ? cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(fp, space), sa_json_str(row, "name", "")) : NULL;

		if (!v || !sa_json_bool(row, "load", true))
			continue;
		put(row, "value", plain_value(v));
		put(row, "from", cJSON_CreateString("file"));
	}
}

/* The ROI table of the file ({"minutes": return}) as [[minutes, return], ...] by minutes, or
 * NULL when it is not one (rp_exits_from_json checks the ranges). */
static cJSON *roi_steps(const cJSON *roi)
{
	double m[64], r[64], t;
	size_t n = 0;
	const cJSON *e;
	cJSON *a;

	if (!cJSON_IsObject(roi))
		return NULL;
	cJSON_ArrayForEach(e, roi) {
		char *end;
		if (n == 64 || !cJSON_IsNumber(e))
			return NULL;
		m[n] = strtod(e->string, &end);
		if (end == e->string || *end)
			return NULL;
		r[n++] = e->valuedouble;
	}
	for (size_t i = 1; i < n; i++)  /* insertion sort: at most 64 steps */
		for (size_t k = i; k > 0 && m[k] < m[k - 1]; k--) {
			t = m[k], m[k] = m[k - 1], m[k - 1] = t;
			t = r[k], r[k] = r[k - 1], r[k - 1] = t;
		}
	a = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++) {
		const double step[2] = { m[i], r[i] };
		cJSON_AddItemToArray(a, cJSON_CreateDoubleArray(step, 2));
	}
	return a;
}

/* The file's roi, stoploss and trailing settings over s's exits, as freqtrade's
 * ft_load_params_from_file sets them; the result checked by the host's own rule. */
static void file_exits(cJSON *s, cJSON *params, const cJSON *fp)
{
	cJSON *x = cJSON_GetObjectItemCaseSensitive(s, "exits"), *from = cJSON_CreateArray();
	const cJSON *roi = cJSON_GetObjectItemCaseSensitive(fp, "roi");
	const cJSON *sl = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(fp, "stoploss"), "stoploss");
	const cJSON *tr = cJSON_GetObjectItemCaseSensitive(fp, "trailing");
	const cJSON *on = cJSON_GetObjectItemCaseSensitive(tr, "trailing_stop");
	struct rp_exits ex;
	char err[320];
	cJSON *steps = NULL;

	put(params, "exits_from_file", from);
	if (!cJSON_IsObject(x) || (!roi && !sl && !cJSON_IsObject(tr)))
		return;
	if (roi) {
		if (!(steps = roi_steps(roi))) {
			put(x, "error", cJSON_CreateString("the parameter file's roi is not a table {\"minutes\": return}"));
			return;
		}
		put(x, "roi", steps);
		cJSON_AddItemToArray(from, cJSON_CreateString("roi"));
	}
	if (cJSON_IsNumber(sl)) {
		put(x, "stop_loss", cJSON_CreateNumber(-sl->valuedouble));
		cJSON_AddItemToArray(from, cJSON_CreateString("stoploss"));
	}
	if (cJSON_IsObject(tr) && cJSON_IsBool(on)) {
		const cJSON *pos = cJSON_GetObjectItemCaseSensitive(tr, "trailing_stop_positive");
		const cJSON *off = cJSON_GetObjectItemCaseSensitive(tr, "trailing_stop_positive_offset");
		const cJSON *only = cJSON_GetObjectItemCaseSensitive(tr, "trailing_only_offset_is_reached");
		cJSON *t = cJSON_CreateObject();

		if (cJSON_IsTrue(on)) {
			cJSON_AddNumberToObject(t, "distance", sa_json_num(x, "stop_loss", 0));
			cJSON_AddItemToObject(t, "positive", cJSON_IsNumber(pos) ?
					      cJSON_CreateNumber(pos->valuedouble) : cJSON_CreateNull());
			cJSON_AddNumberToObject(t, "offset", cJSON_IsNumber(off) ? off->valuedouble : 0);
			cJSON_AddBoolToObject(t, "only_offset", cJSON_IsTrue(only));
			cJSON_AddBoolToObject(t, "best_first", true);  /* freqtrade's order */
			put(x, "trailing", t);
		} else {
			cJSON_Delete(t);
			put(x, "trailing", cJSON_CreateNull());
		}
		cJSON_AddItemToArray(from, cJSON_CreateString("trailing"));
	}
	put(x, "declared", cJSON_CreateBool(true));
	put(x, "source", cJSON_CreateString("freqtrade"));
	if (rp_exits_from_json(x, &ex, err, sizeof err) < 0) {
		/* as a bad declaration in the class: no levels, the reason */
		put(x, "stop_loss", cJSON_CreateNull());
		put(x, "trailing", cJSON_CreateNull());
		put(x, "roi", cJSON_CreateArray());
		put(x, "error", cJSON_CreateString(err));
	}
}

void inspect_params_file(cJSON *s, const char *path)
{
	cJSON *params = cJSON_GetObjectItemCaseSensitive(s, "parameters"), *root = NULL;
	const char *cls = sa_json_str(s, "framework_class", "");
	char json[4096], *buf = NULL, why[600];
	const char *base, *name;
	const cJSON *fp;
	size_t len = 0;
	enum sa_read_status st;

	if (!cJSON_IsObject(params) || strcmp(sa_json_str(s, "framework", ""), "freqtrade"))
		return;
	st = read_sibling(path, json, sizeof json, &buf, &len);
	if (st == SA_READ_MISSING)
		return;
	base = strrchr(json, '/') ? strrchr(json, '/') + 1 : json;
	put(params, "file", cJSON_CreateString(base));
	if (st != SA_READ_OK) {
		put(params, "file_error", cJSON_CreateString(sa_read_strerror(st, base, PARAMS_FILE_CAP, why, sizeof why)));
		goto out;
	}
	root = cJSON_ParseWithLengthOpts(buf, len + 1, NULL, 1);  /* the NUL sa_read_file adds */
	if (!cJSON_IsObject(root)) {
		put(params, "file_error", cJSON_CreateString("not a JSON object: freqtrade ignores it and runs without it"));
		goto out;
	}
	name = sa_json_str(root, "strategy_name", "");
	if (strcmp(name, cls)) {
		snprintf(why, sizeof why, "it is for the strategy '%.64s', not '%.64s': freqtrade refuses it",
			 sa_utf8_valid(name, strlen(name), NULL) ? name : "?", cls);
		put(params, "file_error", cJSON_CreateString(why));
		goto out;
	}
	fp = cJSON_GetObjectItemCaseSensitive(root, "params");
	file_values(params, fp);
	file_exits(s, params, fp);
out:
	cJSON_Delete(root);
	free(buf);
}
