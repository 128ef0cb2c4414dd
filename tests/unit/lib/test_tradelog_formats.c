/* test_tradelog_formats.c - every trade-log layout in tests/data-formats/trades holds the same
 * trades as native.csv; the detected layout is recorded; each broken export says why; the
 * native log parsed from text refuses each bad row with its line. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tradelog_formats.h"

#define TRADES "tests/data-formats/trades/"
#define MAP "entry=opened,exit=closed,side=direction,return=pnl_pct%"

static void load_ok(const char *file, const char *map, struct da_tradelog *log)
{
	char path[256], err[512];

	snprintf(path, sizeof path, TRADES "%s", file);
	if (da_tradelog_load_any(path, map, log, err, sizeof err))
		fail_msg("%s: %s", file, err);
}

static void test_layouts_same_trades(void **state)
{
	static const struct { const char *file, *map, *format; } lay[] = {
		{ "freqtrade.json", NULL, "freqtrade json" },
		{ "freqtrade.csv", NULL, "freqtrade csv" },
		{ "tradingview.csv", NULL, "tradingview" },
		{ "generic.csv", MAP, "column map" },
		{ "native.csv", "", "native" },
	};
	struct da_tradelog native;

	(void)state;
	load_ok("native.csv", NULL, &native);
	assert_int_equal(native.n, 5);
	for (size_t i = 0; i < sizeof lay / sizeof lay[0]; i++) {
		struct da_tradelog log;

		load_ok(lay[i].file, lay[i].map, &log);
		assert_string_equal(log.format, lay[i].format);
		assert_int_equal(log.n, native.n);
		for (size_t k = 0; k < log.n; k++) {
			const struct da_trade *a = &native.trades[k], *b = &log.trades[k];

			if (a->entry != b->entry || a->exit != b->exit || a->side != b->side)
				fail_msg("%s: trade %zu differs", lay[i].file, k + 1);
			/* a percent column divided by 100 may round one ulp off the fraction's text */
			if (fabs(a->ret - b->ret) > 1e-15 * fabs(a->ret))
				fail_msg("%s: trade %zu returns %.17g, native %.17g", lay[i].file, k + 1,
					 b->ret, a->ret);
		}
		da_tradelog_release(&log);
	}
	da_tradelog_release(&native);
}

static void test_broken_exports(void **state)
{
	static const struct { const char *text, *map, *err; } bad[] = {
		{ "{\"strategy\": {\"A\": {\"trades\": []}, \"B\": {\"trades\": []}}}", NULL,
		  "the backtest holds 2 strategies; export one (freqtrade backtesting --strategy NAME)" },
		{ "[{\"open_date\": \"2023-01-01 00:00:00+00:00\", \"close_date\": \"x\", \"profit_ratio\": 0.1}]",
		  NULL, "trade 1: open_date and close_date should be dates (2024-01-02 14:30:00+00:00)" },
		{ "[{\"open_date\": \"2023-01-02\", \"close_date\": \"2023-01-01\", \"profit_ratio\": 0.1}]",
		  NULL, "trade 1: the exit is before the entry" },
		{ "{\"trades\": [1", NULL, "not valid JSON (near byte 12)" },
		{ "pair,open_date,close_date,is_short,profit_ratio\nX,2023-01-01,2023-01-02,maybe,0.1\n",
		  NULL, "line 2: is_short 'maybe' should be true or false" },
		{ "Trade #,Type,Date/Time,Profit %\n1,Entry long,2023-01-01 00:00,1\n2,Exit long,2023-01-02 00:00,1\n",
		  NULL, "line 3: trade 1 has an entry row but no exit row" },
		{ "Trade #,Type,Date/Time,Profit %\n1,Buy,2023-01-01 00:00,1\n", NULL,
		  "line 2: Type 'Buy' should be Entry long, Exit long, Entry short or Exit short" },
		{ "a,b,c,d\n2023-01-01,2023-01-02,up,1\n", "entry=a,exit=b,side=c,return=d",
		  "line 2: c 'up' should be long or short (or buy, sell, 1, -1)" },
		{ "a,b,c,d\n", "entry=a,exit=b,side=c", "TRADES_COLUMNS 'entry=a,exit=b,side=c' names no return column" },
		{ "a,b,c,d\n", "entry=a,exit=b,side=c,profit=d",
		  "TRADES_COLUMNS 'entry=a,exit=b,side=c,profit=d': want entry=COL,exit=COL,side=COL,return=COL (a trailing % on COL: percent)" },
		{ "a,b,c,d\n2023-01-01,2023-01-02,long,-100%\n", "entry=a,exit=b,side=c,return=d%",
		  "line 2: a return at or below -100 % would lose more than everything" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct da_tradelog log;
		char err[512] = "";

		assert_int_equal(da_tradelog_parse_any(bad[i].text, strlen(bad[i].text), bad[i].map, &log,
						       err, sizeof err), -1);
		if (strcmp(err, bad[i].err))
			fail_msg("case %zu: got '%s', want '%s'", i, err, bad[i].err);
		assert_int_equal(log.n, 0);
		da_tradelog_release(&log);
	}
}

static void test_tradelog(void **state)
{
	const char ok[] = "side,entry_time,exit_time,return,note\n"
			  "long,2024-01-01T00:00:00Z,2024-01-01T05:00:00Z,0.01,a\n"
			  "SHORT,2024-01-02T00:00:00Z,2024-01-02T03:00:00Z,-0.002,b\n";
	static const struct { const char *csv, *err; } bad[] = {
		{ "entry_time,exit_time,side\n", "line 1: missing column 'return'" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long,nan\n",
		  "line 2: return 'nan' is not a finite number" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,up,0.1\n",
		  "line 2: side 'up' should be long or short" },
		{ "entry_time,exit_time,side,return\n2024-01-01T02:00:00Z,2024-01-01T01:00:00Z,long,0.1\n",
		  "line 2: exit_time is before entry_time" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long,-1.5\n",
		  "line 2: return -1.5 would lose more than everything" },
		{ "entry_time,exit_time,side,return,return\n", "line 1: column 'return' appears twice" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long,0x6a\n",
		  "line 2: return '0x6a' is not a finite number" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long, 1.5\n",
		  "line 2: return ' 1.5' is not a finite number" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long,1.5\t\n",
		  "line 2: return '1.5\t' is not a finite number" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long,0.01\n"
		  "2024-01-02T00:00:00Z,2024-01-02T01:00:00Z,long,0.02\n"
		  "2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long,0.01\n",
		  "line 4: the same trade as line 2" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long,1e200\n"
		  "2024-01-02T00:00:00Z,2024-01-02T01:00:00Z,long,1e200\n",
		  "line 3: return 1e+200 takes the compounded equity past 1e300" },
		{ "", "the file is empty" },
	};
	struct da_tradelog log;
	char err[256];

	(void)state;
	assert_int_equal(da_tradelog_parse(ok, strlen(ok), &log, err, sizeof(err)), 0);
	assert_int_equal(log.n, 2);
	assert_int_equal(log.trades[1].side, -1);
	assert_true(log.trades[0].ret == 0.01 && log.trades[0].exit - log.trades[0].entry == 5 * 3600);
	assert_string_equal(log.columns, "side,entry_time,exit_time,return,note");
	da_tradelog_release(&log);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(da_tradelog_parse(bad[i].csv, strlen(bad[i].csv), &log, err, sizeof(err)), -1);
		if (strncmp(err, bad[i].err, strlen(bad[i].err)))
			fail_msg("case %zu: got '%s', want '%s...'", i, err, bad[i].err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts_same_trades),
		cmocka_unit_test(test_broken_exports),
		cmocka_unit_test(test_tradelog),
	};

	return cmocka_run_group_tests_name("tradelog_formats", tests, NULL, NULL);
}
