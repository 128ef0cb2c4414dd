/* test_verdict_text.c - the verdict's generated text: the summary's sentences, the fixes and the
 * caveat for each case (the rules: test_verdict.c). */

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
#include "verdict_io.h"
#include "verdict_neighbourhood.h"
#include "verdict_rules.h"
#include "verdict_text.h"
#include "verdict_cases.h"

/* Ruin fails the two gates even where the threshold would let a 100 % drawdown pass, and the
 * summary's first sentence says it. */
static void test_ruin_first_sentence(void **state)
{
	struct vd_numbers n = good();
	struct vd_facts f;
	struct vd_result r;
	char buf[4096];

	(void)state;
	n.ruined = true;
	n.max_dd = 1.0;
	f = facts(n);
	f.th.max_dd = 1.0;
	strcpy(f.ruin_time, "2024-03-22T11:00:00Z");
	vd_decide(&f.num, &f.th, &r);
	assert_false(r.gates[VD_GATE_NET_EDGE].pass);
	assert_false(r.gates[VD_GATE_DRAWDOWN].pass);
	assert_int_equal(r.verdict, VD_NOT_READY);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_true(strncmp(buf, "The account was ruined: compounded net equity reached zero at "
			    "2024-03-22T11:00:00Z", 82) == 0);
}

/* A strategy that never produced signals and no trade log: INCOMPLETE, and what to fix. */
static void test_incomplete_says_what_to_fix(void **state)
{
	struct vd_numbers n = good();
	struct vd_facts f;
	struct vd_result r;
	char buf[4096];

	(void)state;
	n.judged = n.stats_ok = false;
	f = facts(n);
	strcpy(f.run_status, "bad_output");
	strcpy(f.replay_reason, "nothing to replay: the strategy run did not finish cleanly");
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.verdict, VD_INCOMPLETE);
	assert_string_equal(vd_verdict_name(r.verdict), "INCOMPLETE");
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "Incomplete: nothing could be judged, because nothing to replay"));
	assert_non_null(strstr(buf, "each -1, 0 or +1"));
	/* the run's own error, with its line or its bad value, never a pointer to run.json */
	strcpy(f.run_error, "BadOutput: value inf at bar 0 is not -1, 0 or 1");
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "Incomplete: nothing could be judged, because signals(df) returned "
				    "bad output: value inf at bar 0 is not -1, 0 or 1. "));
	strcpy(f.run_status, "error");
	strcpy(f.run_error, "line 2: SyntaxError: expected ':'");
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "because the strategy stopped with an error: line 2: SyntaxError: "
				    "expected ':'. Fix what the error names"));
	assert_null(strstr(buf, "run.json"));
}

/* A profit that rests on the best few trades fails net_edge, and the reason says so. */
static void test_why_concentrated(void **state)
{
	struct vd_numbers n = good();
	struct vd_facts f;
	struct vd_result r;
	char why[512];

	(void)state;
	n.trades = 151;
	n.mean_net = 0.00189;
	n.mean_net_without = -0.0001;
	n.conc_removed = 8;
	n.top_share = 1.0237;
	f = facts(n);
	vd_decide(&f.num, &f.th, &r);
	assert_false(r.gates[VD_GATE_NET_EDGE].pass);
	assert_int_equal(r.verdict, VD_NOT_READY);
	vd_gate_why(&f, &r, VD_GATE_NET_EDGE, why, sizeof why);
	assert_non_null(strstr(why, "; without the best 8 trades (5 %, at least one), which carry "
				    "102 % of the summed net returns, the rest average -0.010 %: the "
				    "edge rests on them"));
	/* one trade: the best is all there is */
	f.num.trades = 1;
	f.num.conc_removed = 1;
	f.num.mean_net_without = NAN;
	vd_decide(&f.num, &f.th, &r);
	vd_gate_why(&f, &r, VD_GATE_NET_EDGE, why, sizeof why);
	assert_non_null(strstr(why, ": with 1 trade the edge rests on the best one alone"));
}

/* Dependent trades count as fewer: the PSR and DSR gates say how many, and what independence
 * would have claimed. */
static void test_why_dependent(void **state)
{
	struct vd_numbers n = good();
	struct vd_facts f;
	struct vd_result r;
	char why[512];

	(void)state;
	n.trades = 209;
	n.psr = 0.9446;
	f = facts(n);
	f.psr_iid = 0.9956;
	f.effective_trades = 78.2;
	f.trades_lag1 = 0.4976;
	vd_decide(&f.num, &f.th, &r);
	assert_false(r.gates[VD_GATE_PSR].pass);
	vd_gate_why(&f, &r, VD_GATE_PSR, why, sizeof why);
	assert_string_equal(why, "PSR 0.945: the probability that the true Sharpe ratio is above "
			    "zero, 0.95 needed (the trades' lag-1 autocorrelation +0.50 makes 209 "
			    "trades count as 78 independent ones; 0.996 if each were independent)");
	/* independent trades: nothing to say */
	f.effective_trades = 209;
	vd_gate_why(&f, &r, VD_GATE_PSR, why, sizeof why);
	assert_null(strstr(why, "independent"));
}

static void test_summary_watch_says_how_many_more(void **state)
{
	struct vd_numbers n = good();
	struct vd_facts f;
	struct vd_result r;
	char buf[4096];

	(void)state;
	n.trades = 70;
	n.min_trl = 12;
	f = facts(n);
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "About 30 more trades"));
	assert_non_null(strstr(buf, "70 closed trades"));
	assert_non_null(strstr(buf, "never a promise of profit"));
	/* the minimum track record, not the trade gate, is the larger need here */
	f.num.min_trl = 140.2;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "About 71 more trades"));
}

/* Re-runs that fail once the full run has traded are a finding: the signal needed bars that
 * had not happened, so the look-ahead veto stands, with its reason; nor is other data called
 * synthetic. */
static void test_failed_runs_veto_and_data(void **state)
{
	struct vd_facts f = facts(good());
	struct vd_result r;
	char buf[4096];

	(void)state;
	f.lookahead_complete = f.robust_complete = f.variants_complete = true;
	f.num.lookahead_failed = 3;
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.gate_verdict, VD_READY_FOR_MICRO_LIVE);
	assert_int_equal(r.verdict, VD_REJECTED_LOOKAHEAD);
	assert_true(r.veto_lookahead);
	vd_veto_reason(&f, &r, VD_REJECTED_LOOKAHEAD, buf, sizeof buf);
	assert_string_equal(buf, "on 3 shorter histories the strategy could not run at all: it "
			    "needs bars that had not happened yet");
	vd_summary(&f, &r, buf, sizeof buf);
	assert_null(strstr(buf, "synthetic"));
	/* a proven leak outranks nothing above it: a refusal is still unsafe first */
	f.num.blocked_actions = 1;
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.verdict, VD_REJECTED_UNSAFE);
	f.num.blocked_actions = 0;
	f.num.lookahead_failed = 0;
	f.synthetic_data = true;
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.verdict, VD_READY_FOR_MICRO_LIVE);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "bundled synthetic data"));
}

/* Signals keyed to this data's own dates or prices are look-ahead by hindsight: vetoed with
 * their own sentence. A later start that changes most signals holds a passing verdict back. */
static void test_hindsight(void **state)
{
	struct vd_facts f = facts(good());
	struct vd_result r;
	char buf[4096];

	(void)state;
	f.lookahead_complete = f.robust_complete = f.variants_complete = true;
	f.num.hindsight = true;
	strcpy(f.hindsight_reason, "The signals are a list of this data's own dates.");
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.gate_verdict, VD_READY_FOR_MICRO_LIVE);
	assert_int_equal(r.verdict, VD_REJECTED_LOOKAHEAD);
	vd_veto_reason(&f, &r, VD_REJECTED_LOOKAHEAD, buf, sizeof buf);
	assert_string_equal(buf, "hindsight: The signals are a list of this data's own dates");
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "not a list of moments remembered from this chart"));
	assert_null(strstr(buf, "dates., so"));
	f.num.hindsight = false;
	f.num.unreproducible = true;
	strcpy(f.hindsight_reason, "Started later in history it gives other signals on 40 % of the compared bars.");
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.verdict, VD_NOT_READY);
	assert_true(r.held_back);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "held at NOT_READY: Started later in history"));
	assert_null(strstr(buf, "AUDIT_S"));
}

/* A verdict resting on an unfinished check never passes: READY and WATCH are held at
 * NOT_READY, with what was checked and what would finish it; a proven leak still rejects. */
static void test_unfinished_holds_back(void **state)
{
	struct vd_numbers n = good();
	struct vd_facts f;
	struct vd_result r;
	char buf[4096];

	(void)state;
	n.unfinished = true;
	f = facts(n);
	f.lookahead_complete = false;
	f.robust_complete = f.variants_complete = true;
	f.lookahead_run = 400;
	strcpy(f.lookahead_stopped, "budget");
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.gate_verdict, VD_READY_FOR_MICRO_LIVE);
	assert_int_equal(r.verdict, VD_NOT_READY);
	assert_true(r.held_back);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "held at NOT_READY because the look-ahead check is unfinished: "
				    "120 of 400 truncated re-runs were checked before the time budget "
				    "(AUDIT_S) ran out"));
	assert_non_null(strstr(buf, "a larger AUDIT_S"));
	f.num.trades = 70;   /* WATCH by the gates: held too */
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.gate_verdict, VD_WATCH);
	assert_int_equal(r.verdict, VD_NOT_READY);
	f.num.lookahead_mismatches = 2;
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.verdict, VD_REJECTED_LOOKAHEAD);
	f.num.lookahead_mismatches = 0;
	f.num.trades = 300;
	f.num.dsr = 0.2;     /* failing gates: NOT_READY on their own, not held back */
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.verdict, VD_NOT_READY);
	assert_false(r.held_back);
}

static void test_summary_dsr_prices_the_trials(void **state)
{
	struct vd_numbers n = good();
	struct vd_facts f;
	struct vd_result r;
	char buf[4096], why[512];

	(void)state;
	n.trades = 209;
	n.dsr = 0.378;
	f = facts(n);
	f.trials = 50;
	f.sharpe = 0.127;
	f.sr0 = 0.147;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "dsr gate failed"));
	assert_non_null(strstr(buf, "best of 50 unskilled variants"));
	assert_non_null(strstr(buf, "0.147"));
	vd_gate_why(&f, &r, VD_GATE_DSR, why, sizeof why);
	assert_string_equal(why, "DSR 0.378 after deflating for 50 trials, 0.95 needed");
}

/* The permutation test ranks the timing before costs: a loser that beats its shuffles is told
 * its timing does not pay, a winner that its positions use the order of the bars; "skill" is
 * said of neither. */
static void test_summary_permutation_words(void **state)
{
	struct vd_numbers n = good();
	struct vd_facts f;
	struct vd_result r;
	char buf[4096];

	(void)state;
	n.net_return = -0.97;
	n.mean_net = -0.001;
	f = facts(n);
	f.robust_ok = f.perm_ok = true;
	f.perm_p = 0.0099;
	f.perm_runs = 100;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "but after costs it does not make money: the timing does not pay for its trading"));
	assert_null(strstr(buf, "skill"));
	f.num.net_return = 0.4;
	f.num.mean_net = 0.001;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "its positions use the order of the bars"));
	assert_null(strstr(buf, "skill"));
}

static void test_summary_lookahead_names_gate_verdict(void **state)
{
	struct vd_facts f = facts(good());
	struct vd_result r;
	char buf[4096];

	(void)state;
	f.num.lookahead_mismatches = 7;
	f.first_mismatch_bar = 42;
	strcpy(f.first_mismatch_time, "2024-01-02T18:00:00Z");
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "7 of 120 truncated re-runs"));
	assert_non_null(strstr(buf, "bar 42 (2024-01-02T18:00:00Z)"));
	assert_non_null(strstr(buf, "would have said READY_FOR_MICRO_LIVE"));
}

/* The passing-audit sentence only where the gates passed; "synthetic" only on the bundled data. */
static void test_caveat_fits_the_verdict(void **state)
{
	struct vd_facts f = facts(good());
	struct vd_result r;
	char buf[4096];

	(void)state;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_int_equal(r.verdict, VD_READY_FOR_MICRO_LIVE);
	assert_non_null(strstr(buf, "A passing audit is a reason to forward-test small"));
	assert_null(strstr(buf, "synthetic"));
	f.synthetic_data = true;
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "the bundled synthetic data demonstrates the method"));
	f.num.lookahead_mismatches = 3;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_int_equal(r.verdict, VD_REJECTED_LOOKAHEAD);
	assert_null(strstr(buf, "passing audit"));
	assert_non_null(strstr(buf, "A result on the bundled synthetic data demonstrates the method"));
	f.num.lookahead_mismatches = 0;
	f.num.dsr = 0.2;
	f.synthetic_data = false;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_int_equal(r.verdict, VD_NOT_READY);
	assert_null(strstr(buf, "passing audit"));
	assert_null(strstr(buf, "synthetic"));
	f.num.blocked_actions = 2;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_int_equal(r.verdict, VD_REJECTED_UNSAFE);
	assert_null(strstr(buf, "passing audit"));
}

/* net_edge failed on concentration or on one trade: that reason, not "no edge after costs". */
static void test_net_edge_fix_says_its_reason(void **state)
{
	struct vd_numbers n = good();
	struct vd_facts f;
	struct vd_result r;
	char buf[4096];

	(void)state;
	n.mean_net = 0.0082;
	n.net_return = 0.12;
	n.mean_net_without = -0.0004;
	f = facts(n);
	vd_decide(&f.num, &f.th, &r);
	assert_false(r.gates[VD_GATE_NET_EDGE].pass);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_null(strstr(buf, "no edge to measure"));
	assert_non_null(strstr(buf, "Without its best 15 trades the edge is gone (the rest average -0.040 %)"));
	f.num.trades = 1;
	f.num.conc_removed = 1;
	f.num.mean_net = f.num.net_return = 0.0328;
	f.num.mean_net_without = NAN;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_null(strstr(buf, "no edge to measure"));
	assert_non_null(strstr(buf, "With 1 trade the edge rests on the best one alone"));
	f.num.mean_net = -0.001;   /* the costs took it: then it is said */
	f.num.net_return = -0.05;
	f.num.trades = 300;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "After costs there is no edge to measure"));
}

/* One trade: no "nan" figure, no "1 trades". */
static void test_one_trade_words(void **state)
{
	struct vd_numbers n = good();
	struct vd_facts f;
	struct vd_result r;
	char buf[4096], why[512];

	(void)state;
	n.trades = 1;
	n.conc_removed = 1;
	n.mean_net_without = n.psr = n.dsr = n.min_trl = NAN;
	f = facts(n);
	f.sharpe = NAN;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	for (int g = 0; g < VD_NGATES; g++) {
		vd_gate_why(&f, &r, (enum vd_gate)g, why, sizeof why);
		assert_null(strstr(why, "nan"));
		assert_null(strstr(why, "1 trades"));
	}
	vd_gate_why(&f, &r, VD_GATE_PSR, why, sizeof why);
	assert_non_null(strstr(why, "PSR not measurable"));
	vd_gate_why(&f, &r, VD_GATE_TRACK_RECORD, why, sizeof why);
	assert_non_null(strstr(why, "1 trade, but"));
	assert_null(strstr(buf, "nan"));
	assert_null(strstr(buf, "1 trades"));
	/* a failing PSR with no Sharpe ratio names no count of trades it cannot know */
	f.num.trades = 300;
	f.num.conc_removed = 15;
	f.num.mean_net_without = 0.003;
	f.num.dsr = 0.99;
	f.num.psr = 0.5;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_false(r.gates[VD_GATE_PSR].pass);
	assert_null(strstr(buf, "nan"));
	assert_null(strstr(buf, "about 0 trades"));
}

/* One trial: no "best of 1 unskilled variants". */
static void test_dsr_fix_one_trial(void **state)
{
	struct vd_facts f = facts(good());
	struct vd_result r;
	char buf[4096];

	(void)state;
	f.trials = 1;
	f.num.dsr = 0.5;
	f.sharpe = 0.08;
	f.sr0 = 0.0;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_false(r.gates[VD_GATE_DSR].pass);
	assert_null(strstr(buf, "best of 1 "));
	assert_non_null(strstr(buf, "With one trial no luck of choosing is priced in"));
	f.trials = 3;
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "The best of 3 unskilled variants"));
}

/* A trade log's own returns: no claim that the edge survives costs it cannot show. */
static void test_trade_log_does_not_claim_costs(void **state)
{
	struct vd_facts f = facts(good());
	struct vd_result r;
	char buf[4096];

	(void)state;
	f.strategy = false;
	f.tradelog = f.trusted_returns = true;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_int_equal(r.verdict, VD_READY_FOR_MICRO_LIVE);
	assert_non_null(strstr(buf, "cannot be seen"));
	assert_null(strstr(buf, "survives costs"));
	assert_non_null(strstr(buf, "holds on the returns as the trade log states them"));
	f.trusted_returns = false;
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "survives costs"));
}

/* A leak under gates that failed anyway: no "which is why the veto exists"; a leak that ended
 * the check early is not also "unfinished". */
static void test_lookahead_veto_words(void **state)
{
	struct vd_numbers n = good();
	struct vd_facts f;
	struct vd_result r;
	char buf[4096];

	(void)state;
	n.dsr = 0.2;
	n.lookahead_mismatches = 5;
	f = facts(n);
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_int_equal(r.verdict, VD_REJECTED_LOOKAHEAD);
	assert_null(strstr(buf, "which is why the veto exists"));
	assert_non_null(strstr(buf, "The gates alone would also have said NOT_READY; make each signal"));
	f.num.dsr = 0.99;
	f.num.unfinished = true;
	f.lookahead_complete = false;
	f.robust_complete = f.variants_complete = true;
	f.lookahead_run = 400;
	strcpy(f.lookahead_stopped, "mismatches");
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_true(r.held_back);
	assert_non_null(strstr(buf, "which is why the veto exists"));
	assert_non_null(strstr(buf, "stopped after 5 mismatches: the leak is established"));
	assert_null(strstr(buf, "held at NOT_READY"));
	assert_null(strstr(buf, "unfinished"));
}

static void test_summary_tiny_buffer_truncates(void **state)
{
	struct vd_facts f = facts(good());
	struct vd_result r;
	char buf[16];

	(void)state;
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_int_equal(strlen(buf), 15);
}

/* A plateau whose family the deflation counted says so, in the family's count; one whose trials
 * came from elsewhere says only the plateau. */
static void test_neighbourhood_family_sentence(void **state)
{
	struct vd_nb nb = { .measured = true, .plateau = true, .keep = 0.61, .keep_min = 0.5,
			    .neighbours = 24, .span = 8, .family = 13 };
	char buf[1024];

	(void)state;
	vd_nb_sentence(&nb, false, "neighbourhood_family", buf, sizeof buf);
	assert_non_null(strstr(buf, "Its parameters sit on a plateau"));
	assert_non_null(strstr(buf, "over a search of a factor of 8 a parameter, rules like it come in "
				    "about 13 independent kinds, and the deflation counts them as 13 trials"));
	vd_nb_sentence(&nb, false, "declared", buf, sizeof buf);
	assert_null(strstr(buf, "independent kinds"));
	nb.family = 1;
	vd_nb_sentence(&nb, false, "neighbourhood_family", buf, sizeof buf);
	assert_null(strstr(buf, "independent kinds"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ruin_first_sentence),
		cmocka_unit_test(test_neighbourhood_family_sentence),
		cmocka_unit_test(test_incomplete_says_what_to_fix),
		cmocka_unit_test(test_why_concentrated),
		cmocka_unit_test(test_why_dependent),
		cmocka_unit_test(test_summary_watch_says_how_many_more),
		cmocka_unit_test(test_failed_runs_veto_and_data),
		cmocka_unit_test(test_unfinished_holds_back),
		cmocka_unit_test(test_hindsight),
		cmocka_unit_test(test_summary_dsr_prices_the_trials),
		cmocka_unit_test(test_summary_permutation_words),
		cmocka_unit_test(test_summary_lookahead_names_gate_verdict),
		cmocka_unit_test(test_caveat_fits_the_verdict),
		cmocka_unit_test(test_net_edge_fix_says_its_reason),
		cmocka_unit_test(test_one_trade_words),
		cmocka_unit_test(test_dsr_fix_one_trial),
		cmocka_unit_test(test_trade_log_does_not_claim_costs),
		cmocka_unit_test(test_lookahead_veto_words),
		cmocka_unit_test(test_summary_tiny_buffer_truncates),
	};

	sa_set_prog("test_verdict_text");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
