/* test_report_model.c - the report's view model: what each row claims matches what was computed. */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ohlcv.h"
#include "ohlcv_json.h"
#include "report_input.h"
#include "report_model.h"
#include "report_fmt.h"
#include "report_checks.h"

/* The model of a hand-made input: its trees held to the stage-file table first, as the loader
 * does. */
static cJSON *build(struct rpt_input *in)
{
	cJSON *m;

	assert_int_equal(rpt_input_views(in), 0);
	m = rpt_model_build(in, "x");
	free(in->sf);
	in->sf = NULL;
	return m;
}

static const char *text_at(const cJSON *m, const char *section, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(m, section), key));
}

/* The meaning given for the stats row labelled label, or NULL. */
static const char *meaning_of(const cJSON *m, const char *label)
{
	const cJSON *row;

	cJSON_ArrayForEach(row, cJSON_GetObjectItem(cJSON_GetObjectItem(m, "stats"), "rows"))
		if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(row, "label")), label) == 0)
			return cJSON_GetStringValue(cJSON_GetObjectItem(row, "meaning"));
	return NULL;
}

/* The stats stage annualises the per-bar Sharpe ratio of the returns of compounded net equity
 * (stats_annual.h), not the per-trade one nor equity changes, and says it is not Lo-corrected
 * with the corrected one beside it: the report must not say otherwise. */
static void test_annualised_sharpe_says_per_bar(void **state)
{
	struct rpt_input in;
	cJSON *m;
	const char *meaning;

	(void)state;
	memset(&in, 0, sizeof in);
	m = build(&in);
	assert_non_null(m);
	meaning = meaning_of(m, "Sharpe ratio (annualised)");
	assert_non_null(meaning);
	assert_non_null(strstr(meaning, "bars per year"));
	assert_null(strstr(meaning, "per-trade"));
	assert_non_null(strstr(meaning, "per-bar returns of compounded net equity"));
	assert_null(strstr(meaning, "changes"));
	assert_non_null(strstr(meaning, "not Lo-corrected"));
	meaning = meaning_of(m, "Sharpe ratio (annualised, Lo-corrected)");
	assert_non_null(meaning);
	assert_non_null(strstr(meaning, "Lo (2002)"));
	cJSON_Delete(m);
}

/* The Data section of a real file's data_format: m->data (owned by the returned model). */
static cJSON *data_model(const char *path)
{
	struct rpt_input in;
	struct da_ohlcv s;
	char err[256];
	cJSON *fp = cJSON_CreateObject(), *m;

	memset(&in, 0, sizeof in);
	assert_int_equal(da_ohlcv_load(path, &s, err, sizeof err), 0);
	cJSON_AddItemToObject(fp, "data_format", da_ohlcv_format_json(&s));
	da_ohlcv_release(&s);
	in.stage[RPT_FINGERPRINT].json = fp;
	in.stage[RPT_FINGERPRINT].ok = true;
	m = build(&in);
	cJSON_Delete(fp);
	assert_non_null(cJSON_GetObjectItem(m, "data"));
	return m;
}

/* The Data section says what the loader did beyond reading columns by name. */
static void test_data_says_what_was_done(void **state)
{
	cJSON *m, *d;

	(void)state;
	m = data_model("tests/data-formats/layouts/cryptodatadownload.csv");
	d = cJSON_GetObjectItem(m, "data");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(d, "reversed")));
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(d, "skipped_line")),
			    "https://www.CryptoDataDownload.com");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(d, "volume_choice")),
			    "from 'Volume BTC', the base asset's; 'Volume USDT' not used");
	cJSON_Delete(m);
	m = data_model("tests/data-formats/layouts/metatrader5.csv");
	d = cJSON_GetObjectItem(m, "data");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(d, "joined")));
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(d, "reversed")));
	assert_null(cJSON_GetObjectItem(d, "skipped_line"));
	assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(d, "columns")),
			       "time=<DATE>, time_of_day=<TIME>, open=<OPEN>"));
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(d, "volume_choice")),
			    "from '<VOL>'; '<TICKVOL>' not used");
	assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(d, "format")),
			       ", the date and the time of day in two columns joined"));
	cJSON_Delete(m);
}

/* The Data section names the file's real format: a Feather or JSON file has no delimiter,
 * yfinance's three header rows are said as such, a plain CSV says its header and delimiter. */
static void test_data_says_the_format(void **state)
{
	static const struct { const char *file, *starts, *absent; } cases[] = {
		{ "tests/data-formats/layouts/freqtrade-zstd.feather",
		  "freqtrade's Feather file (Apache Arrow IPC, columns by name); times as ", "delimiter" },
		{ "tests/data-formats/layouts/freqtrade.json",
		  "freqtrade's JSON (one array [time, open, high, low, close, volume] a bar); times as ", "delimiter" },
		{ "tests/data-formats/layouts/freqtrade.json.gz",
		  "freqtrade's JSON (one array [time, open, high, low, close, volume] a bar), gzip-compressed; "
		  "times as ", "delimiter" },
		{ "tests/data-formats/layouts/yfinance.csv",
		  "CSV with yfinance's three header rows (Price and the fields' names, Ticker, the time "
		  "column's name), delimiter comma (,); times as ", "a header row" },
		{ "tests/data-formats/layouts/native.csv", "CSV with a header row, delimiter comma (,); times as ",
		  "yfinance" },
		{ "tests/data-formats/layouts/semicolon.csv", "CSV with a header row, delimiter semicolon (;); ",
		  "comma" },
		{ "tests/data-formats/layouts/binance-klines.csv.gz",
		  "headerless klines CSV, delimiter comma (,), gzip-compressed; times as ", "header row" },
	};

	(void)state;
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		cJSON *m = data_model(cases[k].file);
		const char *f = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "data"), "format"));

		assert_non_null(f);
		if (strncmp(f, cases[k].starts, strlen(cases[k].starts)) || strstr(f, cases[k].absent))
			fail_msg("%s: format '%s'", cases[k].file, f);
		cJSON_Delete(m);
	}
}

/* NaN or None taken as flat are said in the Containment section, with their count. */
static void test_nan_as_flat_is_said(void **state)
{
	struct rpt_input in;
	cJSON *run = cJSON_Parse("{\"status\": \"ok\", \"ok\": true, \"nan_as_flat\": 20}"), *m;

	(void)state;
	memset(&in, 0, sizeof in);
	in.stage[RPT_RUN].json = run;
	in.stage[RPT_RUN].ok = true;
	m = build(&in);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "containment"),
								     "nan_as_flat")), "20");
	cJSON_Delete(m);
	cJSON_SetNumberValue(cJSON_GetObjectItem(run, "nan_as_flat"), 0);
	m = build(&in);
	assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "containment"), "nan_as_flat"));
	cJSON_Delete(m);
	cJSON_Delete(run);
}

/* What the run printed to standard error is summed up in one line: its lines and its Python
 * warnings by kind, each count agreeing with its noun. */
static void test_stderr_summary(void **state)
{
	static const struct {
		const char *log, *want;
	} cases[] = {
		{ "s.py:9: PerformanceWarning: DataFrame is highly fragmented.\n  df[c] = x\n"
		  "s.py:9: PerformanceWarning: DataFrame is highly fragmented.\n  df[c] = x\n"
		  "s.py:12: FutureWarning: Series.fillna with 'method' is deprecated\n",
		  "The run's standard error, as far as the sandbox kept it: 5 lines, among them "
		  "2 PerformanceWarnings and 1 FutureWarning." },
		{ "hello\n", "The run's standard error, as far as the sandbox kept it: 1 line." },
		{ "a: AWarning: x\nb: BWarning: x\nc: CWarning: x\nd: DWarning: x\ne: EWarning: x\n"
		  "f: FWarning: x\ng: GWarning: x\nWarning: no kind\n",
		  "The run's standard error, as far as the sandbox kept it: 8 lines, among them "
		  "1 AWarning, 1 BWarning, 1 CWarning, 1 DWarning, 1 EWarning, 1 FWarning and 1 "
		  "warning of other kinds." },
	};
	struct rpt_input in;

	(void)state;
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		cJSON *run = cJSON_CreateObject(), *m;

		cJSON_AddStringToObject(run, "status", "ok");
		cJSON_AddStringToObject(run, "stderr", cases[k].log);
		memset(&in, 0, sizeof in);
		in.stage[RPT_RUN].json = run;
		in.stage[RPT_RUN].ok = true;
		m = build(&in);
		assert_string_equal(text_at(m, "containment", "stderr_summary"), cases[k].want);
		cJSON_Delete(m);
		cJSON_Delete(run);
	}
}

/* A gate row says in words what failed: a mean net return above its threshold that fails says
 * the edge rests on the best trades, not "6.383 % vs 0.0 %: fail"; and an INCOMPLETE verdict
 * whose gates measured nothing does not say what the gates alone would have said. */
static void test_gate_words(void **state)
{
	cJSON *v = cJSON_Parse("{\"stage\": \"verdict\", \"schema\": 1, \"ok\": true, \"summary\": \"s\", \"vetoes\": [], \"verdict\": \"NOT_READY\", "
		"\"gate_verdict\": \"NOT_READY\", \"gates\": ["
		"{\"name\": \"net_edge\", \"value\": 0.06383, \"threshold\": 0, \"pass\": false, "
		"\"why\": \"mean net return +6.383 % per trade; without the best 1 trade the rest average -0.1 %\"},"
		"{\"name\": \"trades\", \"value\": 50, \"threshold\": 100, \"pass\": false, \"why\": \"50\"},"
		"{\"name\": \"drawdown\", \"value\": 0.04, \"threshold\": 0.3, \"pass\": true, \"why\": \"4 %\"}]}");
	const cJSON *g;
	struct rpt_input in;
	cJSON *m;

	(void)state;
	memset(&in, 0, sizeof in);
	in.stage[RPT_VERDICT].json = v;
	in.stage[RPT_VERDICT].ok = true;
	m = build(&in);
	g = cJSON_GetArrayItem(cJSON_GetObjectItem(m, "gates"), 0);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(g, "threshold")), "above 0.0 %");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(g, "result")),
			    "fail: the edge rests on the best trades");
	g = cJSON_GetArrayItem(cJSON_GetObjectItem(m, "gates"), 1);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(g, "threshold")), "at least 100");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(g, "result")),
			    "fail: too few trades to count as evidence");
	g = cJSON_GetArrayItem(cJSON_GetObjectItem(m, "gates"), 2);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(g, "threshold")), "at most 30.0 %");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(g, "result")), "pass");
	cJSON_Delete(m);
	cJSON_Delete(v);

	v = cJSON_Parse("{\"stage\": \"verdict\", \"schema\": 1, \"ok\": true, \"summary\": \"s\", \"vetoes\": [], \"verdict\": \"INCOMPLETE\", "
		"\"gate_verdict\": \"NOT_READY\", \"gates\": [{\"name\": \"psr\", \"value\": null, "
		"\"threshold\": 0.95, \"pass\": false, \"why\": \"not measured: no trades\"}]}");
	in.stage[RPT_VERDICT].json = v;
	m = build(&in);
	assert_null(cJSON_GetObjectItem(m, "gate_verdict"));
	g = cJSON_GetArrayItem(cJSON_GetObjectItem(m, "gates"), 0);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(g, "result")), "fail: not measured");
	cJSON_Delete(m);
	cJSON_Delete(v);
	v = cJSON_Parse("{\"stage\": \"verdict\", \"schema\": 1, \"ok\": true, \"summary\": \"s\", \"vetoes\": [], \"verdict\": \"INCOMPLETE\", "
		"\"gate_verdict\": \"NOT_READY\", \"gates\": [{\"name\": \"psr\", \"value\": 0.5, "
		"\"threshold\": 0.95, \"pass\": false, \"why\": \"PSR 0.500\"}]}");
	in.stage[RPT_VERDICT].json = v;
	m = build(&in);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(m, "gate_verdict")), "NOT_READY");
	assert_null(rpt_input_broken(&in));
	cJSON_Delete(m);
	cJSON_Delete(v);
}

/* A gate of verdict.json without its "pass", or with its value a string: the break is named
 * (the report exits on it), never a gate shown failed by default. */
static void test_gate_breaks_are_named(void **state)
{
	static const char *const gates[][2] = {
		{ "{\"name\": \"psr\", \"value\": 0.5, \"threshold\": 0.95, \"why\": \"PSR\"}",
		  "verdict.json: the field \"gates[].pass\" is missing" },
		{ "{\"name\": \"psr\", \"value\": \"0.5\", \"threshold\": 0.95, \"pass\": false, "
		  "\"why\": \"PSR\"}", "verdict.json: the field \"gates[].value\" is not a number or null" },
	};
	char text[512];

	(void)state;
	for (size_t i = 0; i < sizeof gates / sizeof gates[0]; i++) {
		struct rpt_input in;
		cJSON *v, *m;

		snprintf(text, sizeof text, "{\"stage\": \"verdict\", \"schema\": 1, \"ok\": true, "
			 "\"summary\": \"s\", \"vetoes\": [], \"verdict\": \"NOT_READY\", "
			 "\"gate_verdict\": \"NOT_READY\", \"gates\": [%s]}", gates[i][0]);
		v = cJSON_Parse(text);
		memset(&in, 0, sizeof in);
		in.stage[RPT_VERDICT].json = v;
		in.stage[RPT_VERDICT].ok = true;
		assert_int_equal(rpt_input_views(&in), 0);
		m = rpt_model_build(&in, "x");
		assert_non_null(rpt_input_broken(&in));
		assert_non_null(strstr(rpt_input_broken(&in), gates[i][1]));
		free(in.sf);
		cJSON_Delete(m);
		cJSON_Delete(v);
	}
}

/* Percentages and numbers round as printed: no "-0.000" for a value that rounds to zero. */
static void test_formats_have_no_negative_zero(void **state)
{
	static const struct { double x; const char *pct, *num; } rows[] = {
		{ -0.0000001, "0.000 %", "0.000" },
		{ 0.0123456, "1.235 %", "0.012" },
		{ -0.25, "-25.000 %", "-0.250" },
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		cJSON *v = cJSON_CreateNumber(rows[i].x);

		assert_string_equal(rpt_fmt_pct(v, 3, buf, sizeof buf), rows[i].pct);
		assert_string_equal(rpt_fmt_num(v, 3, buf, sizeof buf), rows[i].num);
		cJSON_Delete(v);
	}
	assert_string_equal(rpt_fmt_pct(NULL, 3, buf, sizeof buf), "n/a");
}

/* A cost multiple prints one way everywhere: three significant figures, no exponent. */
static void test_multiple_format(void **state)
{
	static const struct { double x; const char *s; } rows[] = {
		{ 23.456, "23.5x" }, { 7.7884, "7.79x" }, { 0.5234, "0.523x" }, { 0.041234, "0.0412x" },
		{ 150.4, "150x" }, { 1234.6, "1235x" }, { 1.0, "1.00x" }, { 0.0, "0.00x" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		assert_string_equal(rpt_fmt_multiple(rows[i].x, buf, sizeof buf), rows[i].s);
	assert_string_equal(rpt_fmt_multiple(NAN, buf, sizeof buf), "n/a");
}

/* What the sentences quote is what the tables show: the late fills' Sharpe ratios and net
 * return, the break-even multiple; a ruined row says so in its cell. */
static void test_text_quotes_the_tables(void **state)
{
	static const char stats[] = "{\"ok\": true, \"stage\": \"stats\", "
		"\"delay_sensitivity\": [{\"delay_bars\": 1, \"trades\": 50, \"sharpe\": 0.33404511, "
		"\"net_return\": 1.65077, \"ruined\": false}, {\"delay_bars\": 5, \"trades\": 3, "
		"\"sharpe\": -0.71058, \"net_return\": -1, \"ruined\": true}], "
		"\"cost_sensitivity\": [{\"multiple\": 1, \"trades\": 50, \"sharpe\": 0.334, \"psr\": 0.99, "
		"\"net_return\": 1.65, \"ruined\": false}, {\"multiple\": 2, \"trades\": 3, \"sharpe\": -0.7, "
		"\"psr\": 0.1, \"net_return\": -1, \"ruined\": true}], \"cost_basis\": \"replayed\", "
		"\"breakeven_cost_multiple\": 23.456, \"breakeven\": {\"at_ruin\": false, \"reason\": null}, "
		"\"net_return\": 1.2345678, \"benchmark\": {\"net_return\": -0.0000001}}";
	struct rpt_input in;
	const cJSON *delay, *sens, *bench;
	cJSON *m;
	const char *said;
	char want[64];

	(void)state;
	memset(&in, 0, sizeof in);
	in.stage[RPT_STATS].json = cJSON_Parse(stats);
	in.stage[RPT_STATS].ok = true;
	m = build(&in);
	assert_non_null(m);
	delay = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "tearsheet"), "delay");
	said = text_at(m, "tearsheet", "delay_sentence");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(delay, 1), "net")),
			    "-100.00 % (ruined)");
	for (int i = 0; i < 2; i++) {
		const char *sh = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(delay, i), "sharpe"));
		assert_non_null(strstr(said, sh));
	}
	assert_non_null(strstr(said, "to -100.00 % (ruined):"));
	sens = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "costs"), "sensitivity");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(sens, 1), "net")),
			    "-100.00 % (ruined)");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(sens, 1), "multiple")),
			    "2.00x");
	/* the benchmark sentence quotes the net return row of the benchmark table, signed */
	bench = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "tearsheet"), "benchmark"), 1);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(bench, "strategy")), "123.46 %");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(bench, "benchmark")), "0.00 %");
	assert_non_null(strstr(text_at(m, "tearsheet", "benchmark_sentence"),
			       "would have made 0.00 % after the same costs; the strategy made +123.46 %, so it beat"));
	assert_string_equal(text_at(m, "costs", "breakeven"), "23.5x");
	snprintf(want, sizeof want, "survives up to %s the configured", text_at(m, "costs", "breakeven"));
	assert_non_null(strstr(text_at(m, "tearsheet", "breakeven_sentence"), want));
	cJSON_Delete(m);
	cJSON_Delete(in.stage[RPT_STATS].json);
}

/* The Monte Carlo's drawdown so far is the drawdown gate's figure, the closed trades' one beside
 * it when the two differ. */
static void test_monte_carlo_quotes_the_gate(void **state)
{
	static const char stats[] = "{\"ok\": true, \"stage\": \"stats\", \"max_drawdown\": 0.123, "
		"\"monte_carlo\": {\"resamples\": 1000, \"trades\": 40, \"observed_max_drawdown\": 0.118, "
		"\"observed_percentile\": 0.6, \"max_drawdown\": {\"p50\": 0.1, \"p95\": 0.2, "
		"\"p99\": 0.3}, \"net_return\": {\"p5\": -0.1, \"p50\": 0.1, \"p95\": 0.3}, "
		"\"drawdown_probability\": {\"20 %\": 0.05, \"50 %\": 0.0}, \"ruin_probability\": 0}}";
	struct rpt_input in;
	cJSON *m;
	const char *said;

	(void)state;
	memset(&in, 0, sizeof in);
	in.stage[RPT_STATS].json = cJSON_Parse(stats);
	in.stage[RPT_STATS].ok = true;
	m = cJSON_CreateObject();
	assert_int_equal(rpt_checks_model(m, &in), 0);
	said = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "monte_carlo"), "words"));
	assert_non_null(said);
	assert_non_null(strstr(said, "A drawdown of 12.3 % so far (11.8 % on closed trades alone"));
	cJSON_Delete(m);
	cJSON_Delete(in.stage[RPT_STATS].json);
}

/* Live against the backtest: the section exists when replay.json says what it scored; it quotes
 * replay.json's figures (never computes one), names the first bar with both decisions from
 * lookahead.json, and, when the live decisions were not scored, says why. */
static void test_live_section(void **state)
{
	struct rpt_input in;
	const cJSON *l, *row;
	cJSON *m, *rp, *la;

	(void)state;
	memset(&in, 0, sizeof in);
	m = build(&in);
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "live"), "present")));
	cJSON_Delete(m);
	rp = cJSON_Parse("{\"stage\":\"replay\",\"ok\":true,\"trades\":40,\"scored\":\"live\","
			 "\"backtest\":{\"trades\":423,\"net_return\":0.406,\"gross_return\":0.9},"
			 "\"live_vs_backtest\":{\"differing_bars\":12,\"net_return_live\":0.032,"
			 "\"net_return_backtest\":0.406,\"difference\":0.374}}");
	la = cJSON_Parse("{\"stage\":\"lookahead\",\"ok\":true,\"live\":{\"ok\":true,\"bars\":17544,"
			 "\"decided\":17544,\"complete\":true,\"window\":1024,\"differing\":12,"
			 "\"confirmed_leaks\":3,\"memory_mismatches\":0,\"first_differences\":[{\"bar\":812,"
			 "\"time\":\"2023-02-03T20:00:00Z\",\"backtest\":1,\"live\":0,\"confirmed\":\"leak\"}]}}");
	in.stage[RPT_REPLAY] = (struct rpt_stage){ .file = "replay.json", .json = rp, .ok = true };
	in.stage[RPT_LOOKAHEAD] = (struct rpt_stage){ .file = "lookahead.json", .json = la, .ok = true };
	m = build(&in);
	l = cJSON_GetObjectItem(m, "live");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(l, "present")));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(l, "scored_live")));
	assert_string_equal(text_at(m, "live", "difference"), "37.40 %");
	assert_string_equal(text_at(m, "live", "net_return_backtest"), "40.60 %");
	assert_string_equal(text_at(m, "live", "trades_backtest"), "423");
	assert_non_null(strstr(text_at(m, "live", "worth"), "makes 3.20 % net over 40 trades; the "
			       "full-history backtest its author saw claims 40.60 % over 423 trades"));
	assert_non_null(strstr(text_at(m, "live", "worth"), "is +37.40 %"));
	assert_string_equal(text_at(m, "live", "first_said"), "The first: at bar 812 "
			    "(2023-02-03T20:00:00Z) the backtest went long, while with only the past it "
			    "stayed flat.");
	assert_non_null(strstr(text_at(m, "live", "decided"), "Every one of the 17544 bars was decided live"));
	row = cJSON_GetArrayItem(cJSON_GetObjectItem(l, "first_differences"), 0);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(row, "backtest")), "long");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(row, "live")), "flat");
	/* the shared columns give the page its cells, in rpt_live_cols' order */
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(row, "cells")), 5);
	cJSON_Delete(m);

	cJSON_ReplaceItemInObject(rp, "scored", cJSON_CreateString("backtest"));
	cJSON_AddStringToObject(rp, "scored_reason", "the live replay could not run (the bot died)");
	m = build(&in);
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "live"), "scored_live")));
	assert_non_null(strstr(text_at(m, "live", "worth"), "The live decisions were not scored: the "
			       "live replay could not run (the bot died)."));
	cJSON_Delete(m);
	/* a count agrees with its noun */
	cJSON_ReplaceItemInObject(rp, "scored", cJSON_CreateString("live"));
	cJSON_SetNumberValue(cJSON_GetObjectItem(rp, "trades"), 1);
	m = build(&in);
	assert_non_null(strstr(text_at(m, "live", "worth"), "makes 3.20 % net over 1 trade; the "
			       "full-history backtest its author saw claims 40.60 % over 423 trades"));
	cJSON_Delete(m);
	cJSON_Delete(rp);
	cJSON_Delete(la);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_annualised_sharpe_says_per_bar),
		cmocka_unit_test(test_formats_have_no_negative_zero),
		cmocka_unit_test(test_data_says_what_was_done),
		cmocka_unit_test(test_data_says_the_format),
		cmocka_unit_test(test_nan_as_flat_is_said),
		cmocka_unit_test(test_stderr_summary),
		cmocka_unit_test(test_gate_words),
		cmocka_unit_test(test_gate_breaks_are_named),
		cmocka_unit_test(test_multiple_format),
		cmocka_unit_test(test_text_quotes_the_tables),
		cmocka_unit_test(test_monte_carlo_quotes_the_gate),
		cmocka_unit_test(test_live_section),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
