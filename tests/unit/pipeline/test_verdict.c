/* test_verdict.c - the verdict rules table-driven (every precedence case, every gate boundary)
 * and the narrate stage's offline and failure paths (the generated text: test_verdict_text.c; the stage
 * files of a directory: test_verdict_dir.c). */

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "narrate_llm.h"
#include "verdict_io.h"
#include "verdict_rules.h"
#include "verdict_text.h"
#include "verdict_cases.h"

enum field { F_NONE, F_TRADES, F_MEAN, F_NET, F_PSR, F_DSR, F_MINTRL, F_DD, F_BLOCKED, F_KILLED,
	     F_LOOKAHEAD, F_NOSTATS, F_UNJUDGED, F_RUINED, F_WITHOUT, F_EFFECTIVE, F_ALPHA, F_ALPHA_T,
	     F_NO_ALPHA, F_TAIL, F_BOUNCE, F_STALE, F_PEAK };

struct change {
	enum field field;
	double value;
};

struct row {
	const char *name;
	struct change c[3];
	enum vd_verdict verdict, gate_verdict;
	int failing_gate;  /* the one gate that must fail, or -1 for "all pass" / not checked */
};

static void apply(struct vd_numbers *n, const struct change *c)
{
	switch (c->field) {
	case F_TRADES: n->trades = c->value; break;
	case F_MEAN: n->mean_net = c->value; break;
	case F_NET: n->net_return = c->value; break;
	case F_PSR: n->psr = c->value; break;
	case F_DSR: n->dsr = c->value; break;
	case F_MINTRL: n->min_trl = c->value; break;
	case F_DD: n->max_dd = c->value; break;
	case F_BLOCKED: n->blocked_actions = (long)c->value; break;
	case F_KILLED: n->killed = c->value != 0; break;
	case F_LOOKAHEAD: n->lookahead_mismatches = (long)c->value; break;
	case F_NOSTATS: n->stats_ok = false; break;
	case F_UNJUDGED: n->judged = false; n->stats_ok = false; break;
	case F_RUINED: n->ruined = true; break;
	case F_WITHOUT: n->mean_net_without = c->value; break;
	case F_EFFECTIVE: n->effective_trades = c->value; break;
	case F_ALPHA: n->alpha = c->value; break;
	case F_ALPHA_T: n->alpha_t = c->value; break;
	case F_NO_ALPHA: n->alpha_known = false; n->alpha = n->alpha_t = NAN; break;
	case F_TAIL: n->tail_unseen = true; break;
	case F_BOUNCE: n->inside_bounce = true; break;
	case F_STALE: n->stale = true; break;
	case F_PEAK: n->peak = true; break;
	case F_NONE: break;
	}
}

#define R VD_READY_FOR_MICRO_LIVE
#define W VD_WATCH
#define N VD_NOT_READY
#define U VD_REJECTED_UNSAFE
#define L VD_REJECTED_LOOKAHEAD
#define I VD_INCOMPLETE

static const struct row rows[] = {
	/* precedence */
	{ "all pass", { { 0 } }, R, R, -1 },
	{ "one refusal vetoes a ready strategy", { { F_BLOCKED, 1 } }, U, R, -1 },
	{ "a kill at a limit vetoes", { { F_KILLED, 1 } }, U, R, -1 },
	{ "one look-ahead mismatch vetoes", { { F_LOOKAHEAD, 1 } }, L, R, -1 },
	{ "unsafe outranks look-ahead", { { F_BLOCKED, 3 }, { F_LOOKAHEAD, 5 } }, U, R, -1 },
	{ "look-ahead outranks watch", { { F_LOOKAHEAD, 2 }, { F_TRADES, 50 }, { F_MINTRL, 10 } }, L, W, VD_GATE_TRADES },
	{ "look-ahead outranks not ready", { { F_LOOKAHEAD, 2 }, { F_DSR, 0.2 } }, L, N, VD_GATE_DSR },
	{ "unsafe with no statistics", { { F_NOSTATS, 0 }, { F_BLOCKED, 12 } }, U, N, -1 },
	{ "few trades is watch", { { F_TRADES, 99 }, { F_MINTRL, 20 } }, W, W, VD_GATE_TRADES },
	{ "short track record is watch", { { F_TRADES, 150 }, { F_MINTRL, 151 } }, W, W, VD_GATE_TRACK_RECORD },
	{ "both evidence gates short is watch", { { F_TRADES, 60 }, { F_MINTRL, 80 } }, W, W, -1 },
	{ "dsr fail is not ready", { { F_DSR, 0.5 } }, N, N, VD_GATE_DSR },
	{ "dsr fail with few trades is not ready", { { F_DSR, 0.5 }, { F_TRADES, 50 }, { F_MINTRL, 10 } }, N, N, -1 },
	{ "no statistics is not ready", { { F_NOSTATS, 0 } }, N, N, -1 },
	{ "nothing judged is incomplete", { { F_UNJUDGED, 0 } }, I, N, -1 },
	{ "unsafe outranks incomplete", { { F_UNJUDGED, 0 }, { F_BLOCKED, 1 } }, U, N, -1 },
	{ "incomplete outranks look-ahead", { { F_UNJUDGED, 0 }, { F_LOOKAHEAD, 4 } }, I, N, -1 },
	{ "ruin fails net_edge and drawdown", { { F_RUINED, 1 } }, N, N, -1 },
	/* gate boundaries: the threshold itself passes, the next step fails */
	{ "trades 100 passes", { { F_TRADES, 100 }, { F_MINTRL, 50 } }, R, R, -1 },
	{ "trades 99 fails", { { F_TRADES, 99 }, { F_MINTRL, 50 } }, W, W, VD_GATE_TRADES },
	{ "mean net 0 fails", { { F_MEAN, 0.0 } }, N, N, VD_GATE_NET_EDGE },
	{ "mean net tiny passes", { { F_MEAN, 1e-12 } }, R, R, -1 },
	{ "total net 0 fails", { { F_NET, 0.0 } }, N, N, VD_GATE_NET_EDGE },
	{ "total net negative fails", { { F_NET, -0.01 } }, N, N, VD_GATE_NET_EDGE },
	{ "no edge without the best trades fails", { { F_WITHOUT, -0.0001 } }, N, N, VD_GATE_NET_EDGE },
	{ "a zero edge without the best trades fails", { { F_WITHOUT, 0.0 } }, N, N, VD_GATE_NET_EDGE },
	{ "an unmeasured edge without the best trades fails", { { F_WITHOUT, NAN } }, N, N, VD_GATE_NET_EDGE },
	{ "a tiny edge without the best trades passes", { { F_WITHOUT, 1e-12 } }, R, R, -1 },
	{ "few trades resting on the best fail", { { F_WITHOUT, -0.001 }, { F_TRADES, 50 }, { F_MINTRL, 10 } }, N, N, -1 },
	{ "psr 0.95 passes", { { F_PSR, 0.95 } }, R, R, -1 },
	{ "psr just under fails", { { F_PSR, 0.9499999 } }, N, N, VD_GATE_PSR },
	{ "psr unknown fails", { { F_PSR, NAN } }, N, N, VD_GATE_PSR },
	{ "dsr 0.95 passes", { { F_DSR, 0.95 } }, R, R, -1 },
	{ "dsr just under fails", { { F_DSR, 0.9499999 } }, N, N, VD_GATE_DSR },
	{ "min_trl equal to trades passes", { { F_MINTRL, 300 } }, R, R, -1 },
	{ "min_trl one above fails", { { F_MINTRL, 300.5 } }, W, W, VD_GATE_TRACK_RECORD },
	{ "min_trl unknown fails", { { F_MINTRL, NAN } }, W, W, VD_GATE_TRACK_RECORD },
	{ "min_trl infinite fails", { { F_MINTRL, INFINITY } }, W, W, VD_GATE_TRACK_RECORD },
	{ "drawdown 0.25 passes", { { F_DD, 0.25 } }, R, R, -1 },
	{ "drawdown just over fails", { { F_DD, 0.2500001 } }, N, N, VD_GATE_DRAWDOWN },
	{ "drawdown unknown fails", { { F_DD, NAN } }, N, N, VD_GATE_DRAWDOWN },
	/* what READY must mean beyond the returns */
	{ "alpha t at the threshold passes", { { F_ALPHA_T, 1.645 } }, R, R, -1 },
	{ "alpha t just under is watch", { { F_ALPHA_T, 1.6449 } }, W, W, VD_GATE_ALPHA },
	{ "a negative alpha is watch, whatever its t", { { F_ALPHA, -0.05 }, { F_ALPHA_T, 5 } }, W, W, VD_GATE_ALPHA },
	{ "an alpha that cannot be judged is watch", { { F_NO_ALPHA, 0 } }, W, W, VD_GATE_ALPHA },
	{ "beta with a failing dsr is not ready", { { F_ALPHA_T, 0.1 }, { F_DSR, 0.5 } }, N, N, -1 },
	{ "an unseen tail caps at watch", { { F_TAIL, 1 } }, W, W, -1 },
	{ "an unseen tail with a failing psr is not ready", { { F_TAIL, 1 }, { F_PSR, 0.5 } }, N, N, VD_GATE_PSR },
	{ "an edge inside one bar's bounce is not ready", { { F_BOUNCE, 1 } }, N, N, -1 },
	{ "a bounce with too few trades is not ready either", { { F_BOUNCE, 1 }, { F_TRADES, 50 }, { F_MINTRL, 10 } }, N, N, -1 },
	{ "a bounce under a look-ahead mismatch: the veto, the gates not ready", { { F_BOUNCE, 1 }, { F_LOOKAHEAD, 1 } }, L, N, -1 },
	{ "stale prices cap at watch", { { F_STALE, 1 } }, W, W, -1 },
	{ "stale prices with too few trades stay watch", { { F_STALE, 1 }, { F_TRADES, 50 }, { F_MINTRL, 10 } }, W, W, VD_GATE_TRADES },
	{ "stale prices and a bounce are not ready", { { F_STALE, 1 }, { F_BOUNCE, 1 } }, N, N, -1 },
	{ "an edge on a peak of its parameters caps at watch", { { F_PEAK, 1 } }, W, W, -1 },
	{ "a peak with a failing dsr is not ready", { { F_PEAK, 1 }, { F_DSR, 0.5 } }, N, N, VD_GATE_DSR },
	{ "a peak with too few trades stays watch", { { F_PEAK, 1 }, { F_TRADES, 50 }, { F_MINTRL, 10 } }, W, W, VD_GATE_TRADES },
	{ "a peak and a bounce are not ready", { { F_PEAK, 1 }, { F_BOUNCE, 1 } }, N, N, -1 },
	{ "300 trades worth 99 independent ones are watch", { { F_EFFECTIVE, 99 } }, W, W, VD_GATE_TRADES },
	{ "300 trades worth 100 independent ones pass", { { F_EFFECTIVE, 100 } }, R, R, -1 },
};

static void test_rules_table(void **state)
{
	struct vd_thresholds th = vd_default_thresholds();

	(void)state;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct vd_numbers n = good();
		struct vd_result r;

		for (int k = 0; k < 3; k++)
			apply(&n, &rows[i].c[k]);
		vd_decide(&n, &th, &r);
		if (r.verdict != rows[i].verdict || r.gate_verdict != rows[i].gate_verdict)
			fail_msg("%s: got %s / %s, expected %s / %s", rows[i].name,
				 vd_verdict_name(r.verdict), vd_verdict_name(r.gate_verdict),
				 vd_verdict_name(rows[i].verdict), vd_verdict_name(rows[i].gate_verdict));
		if (rows[i].failing_gate >= 0) {
			for (int g = 0; g < VD_NGATES; g++)
				if (r.gates[g].pass != (g != rows[i].failing_gate))
					fail_msg("%s: gate %s pass=%d", rows[i].name,
						 vd_gate_name((enum vd_gate)g), r.gates[g].pass);
		}
	}
}

static void test_thresholds_come_from_config(void **state)
{
	struct vd_thresholds th = { .min_trades = 20, .min_psr = 0.9, .min_dsr = 0.5, .max_dd = 0.5 };
	struct vd_numbers n = good();
	struct vd_result r;

	(void)state;
	n.trades = 25;
	n.min_trl = 10;
	n.psr = 0.91;
	n.dsr = 0.6;
	n.max_dd = 0.4;
	vd_decide(&n, &th, &r);
	assert_int_equal(r.verdict, VD_READY_FOR_MICRO_LIVE);
	assert_true(r.gates[VD_GATE_TRADES].threshold == 20);
	th.min_trades = 26;
	vd_decide(&n, &th, &r);
	assert_int_equal(r.verdict, VD_WATCH);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(vd_verdict_name(VD_REJECTED_UNSAFE), "REJECTED_UNSAFE");
	assert_string_equal(vd_verdict_name(VD_READY_FOR_MICRO_LIVE), "READY_FOR_MICRO_LIVE");
	assert_string_equal(vd_gate_name(VD_GATE_TRACK_RECORD), "track_record");
	assert_string_equal(vd_gate_name(VD_NGATES), "unknown");
}

static void test_llm_accept(void **state)
{
	char out[2048];
	const char *good_reply = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":"
				 "\"WATCH: the strategy looks sound but has only 70 trades; forward-test small.\"}}]}";
	const char *flipped = "{\"choices\":[{\"message\":{\"content\":"
			      "\"READY_FOR_MICRO_LIVE: this is a great strategy, put money in it now.\"}}]}";
	const char *markup = "{\"choices\":[{\"message\":{\"content\":"
			     "\"WATCH <script>alert(1)</script> and some more words to be long enough\"}}]}";

	(void)state;
	strcpy(out, "untouched");
	assert_int_equal(nr_llm_accept(good_reply, strlen(good_reply), "WATCH", out, sizeof out), 0);
	assert_non_null(strstr(out, "70 trades"));
	strcpy(out, "untouched");
	assert_int_equal(nr_llm_accept(flipped, strlen(flipped), "WATCH", out, sizeof out), -1);
	assert_int_equal(nr_llm_accept(markup, strlen(markup), "WATCH", out, sizeof out), -1);
	assert_int_equal(nr_llm_accept("{}", 2, "WATCH", out, sizeof out), -1);
	assert_int_equal(nr_llm_accept("not json", 8, "WATCH", out, sizeof out), -1);
	assert_string_equal(out, "untouched");
}

static void test_llm_offline_and_failure(void **state)
{
	struct nr_llm llm;
	cJSON *v = cJSON_Parse("{\"verdict\":\"WATCH\",\"summary\":\"s\",\"trades\":70}");
	cJSON *cfg_off = cJSON_Parse("{\"narration\":{\"url\":\"\"}}");
	cJSON *cfg_on = cJSON_Parse("{\"narration\":{\"url\":\"http://127.0.0.1:1/v1\"}}");
	char out[256] = "untouched", *req;

	(void)state;
	unsetenv("LLM_API_KEY");
	assert_int_equal(nr_llm_from_config(cfg_off, &llm), -1);
	assert_string_equal(llm.model, "llama-3.3-70b-instruct");  /* the knob table's default */
	assert_int_equal(nr_llm_from_config(cfg_on, &llm), -1);  /* no key */
	setenv("LLM_API_KEY", "k", 1);
	assert_int_equal(nr_llm_from_config(cfg_off, &llm), -1);  /* no endpoint */
	assert_int_equal(nr_llm_from_config(cfg_on, &llm), 0);
	assert_string_equal(llm.url, "http://127.0.0.1:1/v1");
	llm.timeout_s = 5;
	/* nothing listens on port 1: the call fails and the text stays */
	assert_int_equal(nr_llm_narrate(&llm, v, "WATCH", out, sizeof out), -1);
	assert_string_equal(out, "untouched");
	req = nr_llm_request(v, "m");
	assert_non_null(strstr(req, "\\\"trades\\\":70"));
	free(req);
	unsetenv("LLM_API_KEY");
	cJSON_Delete(cfg_off);
	cJSON_Delete(cfg_on);
	cJSON_Delete(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_table),
		cmocka_unit_test(test_thresholds_come_from_config),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_llm_accept),
		cmocka_unit_test(test_llm_offline_and_failure),
	};

	sa_set_prog("test_verdict");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
