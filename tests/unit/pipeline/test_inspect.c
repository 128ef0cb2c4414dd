/* test_inspect.c - the inspect core: one row per red-flag rule (snippet, code, line), guards
 * against false positives, the shape of signals(df), parser limits and trade-log checks. Every
 * strategy goes through the real path: a forked, rlimited child parsing with CPython. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "inspect_core.h"
#include "inspect_rules.h"
#include "jsonio.h"

#define HEAD "import numpy as np\nimport pandas as pd\n\n"
#define SIG "def signals(df):\n    return [0] * len(df)\n"

static cJSON *run(const char *src, char *reason, size_t len)
{
	struct inspect_limits lim = INSPECT_LIMITS_DEFAULT;
	bool broken = true;
	cJSON *s = inspect_strategy_buf(src, strlen(src), &lim, reason, len, &broken);

	assert_non_null(s);
	assert_false(broken);
	return s;
}

/* The number of flags with code (any code when NULL) at line (any line when 0). */
static int count(const cJSON *s, const char *code, int line)
{
	const cJSON *f;
	int n = 0;

	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(s, "flags")) {
		if ((code == NULL || strcmp(sa_json_str(f, "code", ""), code) == 0) &&
		    (line == 0 || (int)sa_json_num(f, "line", 0) == line))
			n++;
	}
	return n;
}

static void test_each_rule_fires(void **state)
{
	static const struct { const char *src; const char *code; int line; } rows[] = {
		{HEAD "import os\n" SIG, "SA101", 4},
		{HEAD "from subprocess import run\n" SIG, "SA101", 4},
		{HEAD "import os.path as p\n" SIG, "SA101", 4},
		{HEAD "import _posixsubprocess\n" SIG, "SA101", 4},
		{HEAD "import numpy, ctypes\n" SIG, "SA101", 4},
		{HEAD "import scipy.stats, pandas_ta\n" SIG, "SA102", 4},
		{HEAD "from . import helper\n" SIG, "SA103", 4},
		{HEAD SIG "x = eval('1')\n", "SA201", 6},
		{HEAD SIG "exec('x = 1')\n", "SA201", 6},
		{HEAD SIG "m = __import__('os')\n", "SA201", 6},
		{HEAD SIG "c = compile('1', 'f', 'eval')\n", "SA201", 6},
		{HEAD SIG "f = open('/etc/passwd')\n", "SA202", 6},
		{HEAD SIG "breakpoint()\n", "SA202", 6},
		{HEAD SIG "g = getattr(np, 'load')\n", "SA203", 6},
		{HEAD SIG "g = globals()\n", "SA203", 6},
		{HEAD SIG "b = __builtins__\n", "SA203", 6},
		{HEAD SIG "r = pd.eval('1 + 1')\n", "SA204", 6},
		{HEAD SIG "def f(df):\n    return df.query('close > 1')\n", "SA204", 7},
		{HEAD SIG "d = pd.read_csv('/tmp/x.csv')\n", "SA205", 6},
		{HEAD SIG "a = np.load('x.npy', allow_pickle=True)\n", "SA205", 6},
		{HEAD SIG "k = ().__class__\n", "SA301", 6},
		{HEAD "def signals(df):\n    g = signals.__globals__\n    return [0] * len(df)\n", "SA301", 5},
		{HEAD SIG "import math\nfr = math.sqrt.__self__\n", "SA301", 7},
		{HEAD SIG "def f():\n    return f.gi_frame\n", "SA301", 7},
		{HEAD SIG "n = df.__len__()\n", "SA302", 6},
		{HEAD SIG "k = 'x'\nkey = '__globals__'\n", "SA303", 7},
		{HEAD SIG "s = '{0.__class__}'.format(1)\n", "SA304", 6},
		{HEAD SIG "s = '{x}'.format_map({'x': 1})\n", "SA304", 6},
		{HEAD "def signals(df):\n    f = df.close.shift(-1)\n    return (f > df.close).astype(int)\n", "SA401", 5},
		{HEAD "def signals(df):\n    f = df.close.shift(periods=-3)\n    return f\n", "SA401", 5},
		{HEAD "def signals(df):\n    m = df.close.rolling(20, center=True).mean()\n    return m\n", "SA402", 5},
		{HEAD "def signals(df):\n    x = df.close.bfill()\n    return x\n", "SA403", 5},
		{HEAD "def signals(df):\n    x = df.close.fillna(method='backfill')\n    return x\n", "SA403", 5},
		{HEAD "def signals(df):\n    x = df.close.interpolate()\n    return x\n", "SA403", 5},
		{HEAD "def signals(df):\n    z = (df.close - df.close.mean()) / df.close.std()\n    return z\n", "SA404", 5},
		{HEAD "def signals(df):\n    return (df['close'] > df['close'].median()).astype(int)\n", "SA404", 5},
		{HEAD "def signals(df):\n    x = df.close / np.max(df.close)\n    return x\n", "SA404", 5},
		{HEAD "def signals(df):\n    r = np.roll(df.close.values, 1)\n    return r\n", "SA405", 5},
		{HEAD "VARIANTS = [{'n': 1}, make(2)]\n" SIG, "SA501", 4},
		{HEAD "VARIANTS = {'n': 1}\n" SIG, "SA501", 4},
		{HEAD "VARIANTS = []\n" SIG, "SA501", 4},
		{HEAD "VARIANTS = [{'n': 1}, 3]\n" SIG, "SA501", 4},
		{HEAD "VARIANTS = [{'n': {'deep': 1}}]\n" SIG, "SA501", 4},
		{HEAD "VARIANTS = [{'n': 1e999}]\n" SIG, "SA501", 4},
		{HEAD "VARIANTS = [{'not a name': 1}]\n" SIG, "SA501", 4},
		{HEAD "VARIANTS: list = [{'n': 1}]\n" SIG, "SA501", 4},
		{HEAD "STOP_LOSS = 0.05\n" SIG, "SA502", 4},
		{HEAD "STOP_LOSS = -1.5\n" SIG, "SA502", 4},
		{HEAD "TAKE_PROFIT = '3%'\n" SIG, "SA502", 4},
		{HEAD "TAKE_PROFIT = -0.01\n" SIG, "SA502", 4},
		{HEAD "TRAILING_STOP = True\n" SIG, "SA502", 4},
		{HEAD "ROI = {-5: 0.01}\n" SIG, "SA502", 4},
		{HEAD "ROI = {'soon': 0.01}\n" SIG, "SA502", 4},
		{HEAD "ROI = {0: -2}\n" SIG, "SA502", 4},
		{HEAD "ROI = [0.01]\n" SIG, "SA502", 4},
		{HEAD "ROI = {0: 1e999}\n" SIG, "SA502", 4},
		{HEAD "class S(IStrategy):\n    stoploss = 0.1\n" SIG, "SA502", 5},
		{HEAD "class S(IStrategy):\n    stoploss = -0.1\n    trailing_stop = 'yes'\n" SIG, "SA502", 6},
		{HEAD "class S(IStrategy):\n    trailing_stop = True\n" SIG, "SA502", 5},
		{HEAD "STOP_LOSS = -0.1\nclass S(IStrategy):\n    stoploss = -0.1\n" SIG, "SA502", 6},
		{HEAD "X = 1\nSTOP_LOSS = -X / 100\n" SIG, "SA503", 5},
		{HEAD "STOP_LOSS = -0.1\nSTOP_LOSS += 0.01\n" SIG, "SA503", 5},
		{HEAD "class S(IStrategy):\n    minimal_roi = make()\n" SIG, "SA503", 5},
	};
	char reason[600];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		cJSON *s = run(rows[i].src, reason, sizeof(reason));
		if (count(s, rows[i].code, rows[i].line) != 1) {
			char *text = cJSON_Print(s);
			print_error("row %zu: want one %s at line %d in:\n%s\ngot:\n%s\n", i, rows[i].code,
				    rows[i].line, rows[i].src, text);
			free(text);
			fail();
		}
		cJSON_Delete(s);
	}
}

/* VARIANTS is read as data: count, keys and the parameter sets; a malformed value or one with
 * more than 1000 entries is a finding at its line, and the shape stays fine. */
static void test_variants(void **state)
{
	char reason[600], *big = malloc(1024 * 16 + 256);
	cJSON *s, *v;
	size_t off;

	(void)state;
	s = run(HEAD "VARIANTS = [{'n': 2, 'side': 'long'}, {'n': 3, 'on': [1, 2], 'x': None}]\n"
		"def signals(df, *, n=2, side='long', on=(1,), x=None):\n    return [0] * len(df)\n",
		reason, sizeof(reason));
	v = cJSON_GetObjectItemCaseSensitive(s, "variants");
	assert_true(sa_json_bool(v, "declared", false));
	assert_true(sa_json_bool(s, "shape_ok", false));
	assert_int_equal((int)sa_json_num(v, "count", -1), 2);
	assert_int_equal((int)sa_json_num(v, "line", -1), 4);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(v, "keys")), 4);
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(v, "keys"), 0)->valuestring, "n");
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(v, "error")));
	assert_int_equal((int)sa_json_num(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(v, "params"), 1), "n", 0), 3);
	assert_int_equal(count(s, "SA501", 0), 0);
	cJSON_Delete(s);

	/* none declared */
	s = run(HEAD SIG, reason, sizeof(reason));
	v = cJSON_GetObjectItemCaseSensitive(s, "variants");
	assert_false(sa_json_bool(v, "declared", true));
	assert_int_equal((int)sa_json_num(v, "count", -1), 0);
	cJSON_Delete(s);

	/* 1001 entries: a finding, the count stays 0, the audit carries on */
	off = (size_t)sprintf(big, "%sVARIANTS = [", HEAD);
	for (int i = 0; i < 1001; i++)
		off += (size_t)sprintf(big + off, "{'n': %d},", i);
	sprintf(big + off, "]\n%s", SIG);
	s = run(big, reason, sizeof(reason));
	v = cJSON_GetObjectItemCaseSensitive(s, "variants");
	assert_true(sa_json_bool(v, "declared", false));
	assert_int_equal((int)sa_json_num(v, "count", -1), 0);
	assert_non_null(strstr(sa_json_str(v, "error", ""), "1001 entries"));
	assert_int_equal(count(s, "SA501", 4), 1);
	assert_true(sa_json_bool(s, "shape_ok", false));
	cJSON_Delete(s);
	free(big);
}

/* A framework class with no signals(): its kind, class and literal declarations; a Strategy base
 * counts only where backtesting is imported; a value that is not a literal is null. */
static void test_framework(void **state)
{
	static const struct {
		const char *src, *kind, *cls, *tf;
		int startup;
		bool shape_ok;
	} rows[] = {
		{ "from freqtrade.strategy import IStrategy\nimport talib.abstract as ta\n"
		  "class A(IStrategy):\n    timeframe = '4h'\n    startup_candle_count: int = 30\n"
		  "    can_short = True\n", "freqtrade", "A", "4h", 30, true },
		{ "import freqtrade.strategy as fs\nTF = '1h'\nclass B(fs.IStrategy):\n    timeframe = TF\n",
		  "freqtrade", "B", NULL, -1, true },
		{ "from backtesting import Strategy\nclass C(Strategy):\n    def next(self):\n        pass\n",
		  "backtesting", "C", NULL, -1, true },
		{ "class Strategy:\n    pass\nclass D(Strategy):\n    pass\n", NULL, NULL, NULL, -1, false },
	};
	char reason[600];

	(void)state;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		cJSON *s = run(rows[i].src, reason, sizeof(reason));
		const cJSON *sc = cJSON_GetObjectItemCaseSensitive(s, "startup_candle_count");

		assert_int_equal(sa_json_bool(s, "shape_ok", !rows[i].shape_ok), rows[i].shape_ok);
		if (rows[i].kind) {
			assert_string_equal(sa_json_str(s, "framework", ""), rows[i].kind);
			assert_string_equal(sa_json_str(s, "framework_class", ""), rows[i].cls);
			assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(s, "shape_reason")));
		} else {
			assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(s, "framework")));
		}
		if (rows[i].tf)
			assert_string_equal(sa_json_str(s, "timeframe", ""), rows[i].tf);
		else
			assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(s, "timeframe")));
		if (rows[i].startup >= 0)
			assert_int_equal((int)sa_json_num(s, "startup_candle_count", -1), rows[i].startup);
		else
			assert_true(cJSON_IsNull(sc));
		assert_int_equal(count(s, "SA102", 0), 0);
		cJSON_Delete(s);
	}
}

static void test_false_positives(void **state)
{
	static const char *const clean[] = {
		/* prose is not code: comments and docstrings may name anything */
		"\"\"\"Never call os.system or eval; __class__ is not used.\"\"\"\n" HEAD
		"# os.system('rm -rf /') would be refused\n" SIG,
		HEAD "def signals(df):\n    \"\"\"Uses __globals__? no: import os is not here.\"\"\"\n"
		"    return [0] * len(df)\n",
		/* the words as data, or as ordinary variable and column names */
		HEAD "NOTE = 'do not import os'\nopen = 1\n" SIG,
		HEAD "def signals(df):\n    open_ = df['open']\n    o = df.open\n    return (df.close > o).astype(int)\n",
		HEAD "def signals(df):\n    open = df['open']\n    return (df.close > open).astype(int)\n",
		/* windows and past-only operations are honest */
		HEAD "def signals(df):\n    z = (df.close - df.close.rolling(20).mean()) / df.close.rolling(20).std()\n"
		"    return (z > 1).astype(int)\n",
		HEAD "def signals(df):\n    m = df.close.expanding().max()\n    return (df.close >= m).astype(int)\n",
		HEAD "def signals(df):\n    x = df.close.shift(1).ffill()\n    return (df.close > x).astype(int)\n",
		HEAD "def signals(df):\n    m = df[['open', 'close']].mean(axis=1)\n    return (df.close > m).astype(int)\n",
		HEAD "def signals(df):\n    r = df.close.rolling(20, center=False).mean()\n    return r\n",
		/* a type's name in a message reaches nothing */
		HEAD "def signals(df):\n    try:\n        x = df.close\n    except Exception as e:\n"
		"        print(type(e).__name__, signals.__doc__)\n    return [0] * len(df)\n",
		/* classes, f-strings, math and __name__ are fine */
		"from __future__ import annotations\nimport math\nfrom collections import deque\n"
		"class S:\n    def __init__(self):\n        super().__init__()\n"
		"def signals(df):\n    label = f'{len(df)} bars'\n    return [0] * len(df)\n"
		"if __name__ == '__main__':\n    pass\n",
	};
	char reason[600];

	(void)state;
	for (size_t i = 0; i < sizeof(clean) / sizeof(clean[0]); i++) {
		cJSON *s = run(clean[i], reason, sizeof(reason));
		if (count(s, NULL, 0) != 0 || reason[0] != '\0') {
			char *text = cJSON_Print(s);
			print_error("row %zu: want no flags in:\n%s\ngot (%s):\n%s\n", i, clean[i], reason, text);
			free(text);
			fail();
		}
		cJSON_Delete(s);
	}
}

static void test_shape(void **state)
{
	static const struct { const char *src; bool has; bool ok; const char *why; } rows[] = {
		{SIG, true, true, NULL},
		{"def signals(df, *, window=20):\n    return df\n", true, true, NULL},
		{"def signals(df, n):\n    return df\n", true, false, "takes 2 positional parameters"},
		{"def signals():\n    return []\n", true, false, "takes 0 positional parameters"},
		{"def signals(*args):\n    return []\n", true, false, "takes *args"},
		{"def signals(df, *, k):\n    return []\n", true, false, "required keyword-only parameter 'k'"},
		{"async def signals(df):\n    return []\n", true, false, "is async"},
		{"signals = lambda df: [0] * len(df)\n", false, false, "is assigned at line 1"},
		{"class signals:\n    pass\n", true, false, "is a class"},
		{"def helper(df):\n    def signals(df):\n        return df\n    return signals\n", false, false,
		 "no top-level 'def signals(df)'"},
		{"x = 1\n", false, false, "no top-level 'def signals(df)'"},
	};
	char reason[600];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		cJSON *s = run(rows[i].src, reason, sizeof(reason));
		const char *why = sa_json_str(s, "shape_reason", NULL);
		assert_true(sa_json_bool(s, "parsed", false));
		if (sa_json_bool(s, "has_signals", !rows[i].has) != rows[i].has ||
		    sa_json_bool(s, "shape_ok", !rows[i].ok) != rows[i].ok ||
		    (rows[i].why && (!why || !strstr(why, rows[i].why) || !strstr(reason, rows[i].why))) ||
		    (!rows[i].why && (why || reason[0]))) {
			print_error("row %zu: %s -> %s (%s)\n", i, rows[i].src, why ? why : "null", reason);
			fail();
		}
		cJSON_Delete(s);
	}
}

static void test_flag_fields(void **state)
{
	/* the column is in characters, 1-based, at the attribute's name; source is the line */
	const char *src = "# é\n" SIG "t = 'é'; x = ().__class__\n";
	char reason[600];
	cJSON *s;
	const cJSON *f;

	(void)state;
	s = run(src, reason, sizeof(reason));
	f = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(s, "flags"), 0);
	assert_non_null(f);
	assert_string_equal(sa_json_str(f, "code", ""), "SA301");
	assert_string_equal(sa_json_str(f, "severity", ""), "error");
	assert_int_equal((int)sa_json_num(f, "line", 0), 4);
	assert_int_equal((int)sa_json_num(f, "col", 0), 17);
	assert_string_equal(sa_json_str(f, "source", ""), "t = 'é'; x = ().__class__");
	assert_non_null(strstr(sa_json_str(f, "message", ""), "'__class__'"));
	cJSON_Delete(s);
}

static void test_bad_sources(void **state)
{
	static const struct { const char *src; size_t len; const char *why; } rows[] = {
		{"", 0, "the file is empty"},
		/* the rows below are measured with strlen */
		{"x = 1\n\0\x01\x02", 9, "binary file"},
		{"x = 'caf\xe9'\n", 0, "not valid UTF-8"},
		{"def signals(df):\n    return df +\n", 0, "syntax error at line 2"},
		{"x = 1\n  y = 2\n", 0, "syntax error at line 2"},
	};
	struct inspect_limits lim = INSPECT_LIMITS_DEFAULT;
	char reason[600];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		bool broken = true;
		size_t len = rows[i].len > 0 || i == 0 ? rows[i].len : strlen(rows[i].src);
		cJSON *s = inspect_strategy_buf(rows[i].src, len, &lim, reason, sizeof(reason), &broken);
		assert_false(broken);
		if (!strstr(reason, rows[i].why)) {
			print_error("row %zu: want '%s', got '%s'\n", i, rows[i].why, reason);
			fail();
		}
		assert_false(sa_json_bool(s, "shape_ok", true));
		cJSON_Delete(s);
	}
}

/* Deep nesting stops the parser or the walker with a clear reason, never a crash. */
static void test_parser_bombs(void **state)
{
	static const char *const pieces[][3] = {
		{"x = ", "-", "1\n"},
		{"x = ", "1+", "1\n"},
		{"x = ", "not ", "x\n"},
	};
	char reason[600];

	(void)state;
	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		size_t n = 100000, k = strlen(pieces[i][1]);
		char *src = malloc(n * k + 64);
		cJSON *s;

		assert_non_null(src);
		strcpy(src, pieces[i][0]);
		for (size_t j = 0; j < n; j++)
			memcpy(src + 4 + j * k, pieces[i][1], k);
		strcpy(src + 4 + n * k, pieces[i][2]);
		s = run(src, reason, sizeof(reason));
		assert_false(sa_json_bool(s, "parsed", true));
		assert_non_null(strstr(reason, "parser gave up"));
		cJSON_Delete(s);
		free(src);
	}
}

/* A child that hits its CPU limit is a finding about the file, not a broken tool. */
static void test_child_limits(void **state)
{
	struct inspect_limits lim = {.cpu_s = 0, .wall_s = 20, .mem_mb = 512};
	cJSON *out = NULL;
	char err[256] = "";

	(void)state;
	assert_int_equal(inspect_parse(SIG, &lim, &out, err, sizeof(err)), INSPECT_PARSE_LIMIT);
	assert_null(out);
	assert_non_null(strstr(err, "ran out of time"));
}

static void test_tradelog(void **state)
{
	static const char head[] = "entry_time,exit_time,side,return\n";
	static const struct { const char *body; int rows; int line; const char *why; } rows[] = {
		{"2024-01-01T00:00:00Z,2024-01-01T05:00:00Z,long,0.01\n"
		 "2024-01-02T00:00:00Z,2024-01-02T05:00:00Z,short,-0.02\n", 2, 0, NULL},
		{"2024-01-01T00:00:00Z,2024-01-01T05:00:00Z,long,nan\n", -1, 2, "not a finite number"},
		{"2024-01-02T00:00:00Z,2024-01-02T05:00:00Z,long,0.01\n"
		 "2024-01-01T00:00:00Z,2024-01-01T05:00:00Z,long,0.01\n", 2, 3, "goes backwards"},
	};
	char buf[512], reason[600];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		cJSON *t;
		const cJSON *e;
		snprintf(buf, sizeof(buf), "%s%s", head, rows[i].body);
		t = inspect_tradelog_buf(buf, strlen(buf), reason, sizeof(reason));
		e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(t, "errors"), 0);
		assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(t, "columns")), 4);
		assert_int_equal((int)sa_json_num(t, "rows", -1), rows[i].rows);
		if (rows[i].why) {
			assert_int_equal((int)sa_json_num(e, "line", 0), rows[i].line);
			assert_non_null(strstr(sa_json_str(e, "message", ""), rows[i].why));
			assert_non_null(strstr(reason, rows[i].why));
		} else {
			assert_null(e);
			assert_string_equal(reason, "");
		}
		cJSON_Delete(t);
	}
	{
		const char *bad = "entry_time,side,return\n2024-01-01T00:00:00Z,long,0.01\n";
		cJSON *t = inspect_tradelog_buf(bad, strlen(bad), reason, sizeof(reason));
		assert_non_null(strstr(reason, "missing column 'exit_time'"));
		assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(t, "columns")), 3);
		cJSON_Delete(t);
	}
}

static void test_rule_table(void **state)
{
	size_t n;
	const struct inspect_rule *r = inspect_rules(&n);

	(void)state;
	assert_true(n >= 15);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(strlen(r[i].code), 5);
		assert_true(i == 0 || strcmp(r[i - 1].code, r[i].code) < 0);
		assert_true(!strcmp(r[i].severity, "error") || !strcmp(r[i].severity, "warning") ||
			    !strcmp(r[i].severity, "hint"));
		assert_ptr_equal(inspect_rule_find(r[i].code), &r[i]);
	}
	assert_null(inspect_rule_find("SA999"));
	assert_null(inspect_import_code("numpy.linalg"));
	assert_string_equal(inspect_import_code("os"), "SA101");
	assert_null(inspect_import_code("sklearn.linear_model"));
	assert_string_equal(inspect_import_code("pandas_ta"), "SA102");
	/* the frameworks the sandbox provides, but not their submodules it does not */
	assert_null(inspect_import_code("talib.abstract"));
	assert_null(inspect_import_code("freqtrade.vendor.qtpylib.indicators"));
	assert_string_equal(inspect_import_code("technical.indicators"), "SA102");
	assert_true(inspect_is_dunder("__class__"));
	assert_false(inspect_is_dunder("__main__"));
	assert_false(inspect_is_dunder("__ x__"));
}

/* strategy.normalised of src: version and structure hashes into v and st. */
static void norm_of(const char *src, char v[65], char st[65])
{
	char reason[512];
	cJSON *s = run(src, reason, sizeof(reason));
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(s, "normalised");

	assert_true(cJSON_IsObject(n));
	snprintf(v, 65, "%s", sa_json_str(n, "version_sha256", ""));
	snprintf(st, 65, "%s", sa_json_str(n, "structure_sha256", ""));
	assert_int_equal(strlen(v), 64);
	assert_int_equal(strlen(st), 64);
	cJSON_Delete(s);
}

/* The lineage rule's inputs: comments, formatting, docstrings and the names the file binds never
 * change the version; a constant changes the version, not the structure; a different call or an
 * interface name changes the structure. */
/* A freqtrade class's parameters: the space from space= or the name's prefix, the value from
 * <space>_params over the literal default, load=False keeping the default, a default that is
 * not a literal null; no parameters for a file that is not a freqtrade class. */
static void test_parameters(void **state)
{
	static const char src[] =
		"from freqtrade.strategy import IStrategy, IntParameter, DecimalParameter, BooleanParameter\n"
		"from freqtrade.strategy import CategoricalParameter\n"
		"N = 5\n"
		"class A(IStrategy):\n"
		"    buy_params = {'buy_a': 7, 'kind': 'ema', 'keep': 9}\n"
		"    sell_params = {'sell_b': 0.25}\n"
		"    buy_a = IntParameter(1, 10, default=3)\n"
		"    kind = CategoricalParameter(['sma', 'ema'], space='buy')\n"
		"    keep = IntParameter(1, 10, default=4, space='buy', load=False)\n"
		"    sell_b = DecimalParameter(0.1, 0.5, default=0.12345, decimals=2)\n"
		"    loose = BooleanParameter()\n"
		"    computed = IntParameter(1, 10, default=N, space='sell')\n";
	static const struct { const char *name, *space, *value, *from; } want[] = {
		{ "buy_a", "buy", "7", "buy_params" },
		{ "kind", "buy", "\"ema\"", "buy_params" },
		{ "keep", "buy", "4", "default" },
		{ "sell_b", "sell", "0.25", "sell_params" },
		{ "loose", NULL, "true", "default" },
		{ "computed", "sell", "null", "default" },
	};
	char reason[600];
	cJSON *s = run(src, reason, sizeof(reason)), *t;
	const cJSON *values = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(s, "parameters"), "values");

	(void)state;
	assert_int_equal(cJSON_GetArraySize(values), (int)(sizeof want / sizeof want[0]));
	for (int i = 0; i < cJSON_GetArraySize(values); i++) {
		const cJSON *v = cJSON_GetArrayItem(values, i), *sp = cJSON_GetObjectItemCaseSensitive(v, "space");
		char *text = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(v, "value"));

		assert_string_equal(sa_json_str(v, "name", ""), want[i].name);
		if (want[i].space)
			assert_string_equal(sp->valuestring, want[i].space);
		else
			assert_true(cJSON_IsNull(sp));
		assert_string_equal(text, want[i].value);
		assert_string_equal(sa_json_str(v, "from", ""), want[i].from);
		free(text);
	}
	cJSON_Delete(s);
	t = run(HEAD SIG, reason, sizeof(reason));
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(t, "parameters")));
	cJSON_Delete(t);
}

static void test_normalised(void **state)
{
	static const char base[] =
		"import numpy as np\n"
		"def signals(df):\n"
		"    fast = df['close'].rolling(10).mean()\n"
		"    slow = df['close'].rolling(40).mean()\n"
		"    return np.where(fast > slow * (1 + 0.002), 1, -1)\n";
	static const struct {
		const char *src;
		bool same_version, same_structure;
	} cases[] = {
		{ "# a comment\nimport numpy as np\n\n\ndef signals(df):\n    \"\"\"Docstring.\"\"\"\n"
		  "    fast = df[\"close\"].rolling( 10 ).mean()  # fast\n"
		  "    slow = df['close'].rolling(40).mean()\n"
		  "    return np.where(fast > slow * (1 + 0.0020), 1, -1)\n", true, true },
		{ "import numpy as xp\ndef signals(frame):\n    a = frame['close'].rolling(10).mean()\n"
		  "    b = frame['close'].rolling(40).mean()\n"
		  "    return xp.where(a > b * (1 + 0.002), 1, -1)\n", true, true },
		{ "import numpy as np\ndef signals(df):\n    fast = df['close'].rolling(20).mean()\n"
		  "    slow = df['close'].rolling(80).mean()\n"
		  "    return np.where(fast > slow * (1 + 0.002), 1, -1)\n", false, true },
		{ "import numpy as np\ndef signals(df):\n    fast = df['close'].rolling(10).mean()\n"
		  "    slow = df['close'].rolling(40).mean()\n"
		  "    return np.where(fast > slow * (1 - 0.002), 1, -1)\n", false, false },
		{ "import numpy as np\ndef signals(df):\n    fast = df['close'].ewm(span=10).mean()\n"
		  "    slow = df['close'].rolling(40).mean()\n"
		  "    return np.where(fast > slow * (1 + 0.002), 1, -1)\n", false, false },
		{ "import numpy as np\ndef signals(df):\n    fast = df['close'].rolling(10).mean()\n"
		  "    slow = df['close'].rolling(-40).mean()\n"
		  "    return np.where(fast > slow * (1 + 0.002), 1, -1)\n", false, true },
	};
	char v0[65], s0[65], v[65], st[65];

	(void)state;
	norm_of(base, v0, s0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		norm_of(cases[i].src, v, st);
		assert_int_equal(strcmp(v, v0) == 0, cases[i].same_version);
		assert_int_equal(strcmp(st, s0) == 0, cases[i].same_structure);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_table),
		cmocka_unit_test(test_each_rule_fires),
		cmocka_unit_test(test_false_positives),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_framework),
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_flag_fields),
		cmocka_unit_test(test_bad_sources),
		cmocka_unit_test(test_parser_bombs),
		cmocka_unit_test(test_child_limits),
		cmocka_unit_test(test_tradelog),
		cmocka_unit_test(test_normalised),
		cmocka_unit_test(test_parameters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
