/* verdict_text.c - the plain-English lines of a verdict, generated from its numbers, never canned. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "verdict_text.h"
#include "verdict_trials.h"

/* A bounded appender: text past the end is dropped, the buffer stays NUL-terminated. */
struct text {
	char *buf;
	size_t len, used;
};

__attribute__((format(printf, 2, 3))) static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->len == 0 || t->used >= t->len - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->used += (size_t)n < t->len - t->used ? (size_t)n : t->len - t->used - 1;
}

static struct text text_init(char *buf, size_t len)
{
	struct text t = { buf, len, 0 };

	if (len)
		buf[0] = '\0';
	return t;
}

static double pct(double x)
{
	return 100.0 * x;
}

static const char *plural(double n)
{
	return n == 1.0 ? "" : "s";
}

/* A ratio to three decimals, or "not measurable" where it is not a number: never "nan". */
struct fig {
	char s[24];
};

static struct fig fig3(double x)
{
	struct fig r;

	if (isfinite(x))
		snprintf(r.s, sizeof r.s, "%.3f", x);
	else
		snprintf(r.s, sizeof r.s, "not measurable");
	return r;
}

/* Trades still needed to clear both evidence gates at the present quality; 0 when none. */
static double trades_short(const struct vd_facts *f)
{
	/* the trades gate counts independent trades: as many raw trades, at this dependence */
	double per = f->effective_trades > 0 && f->effective_trades < f->num.trades ?
		     f->num.trades / f->effective_trades : 1.0;
	double need = ceil(f->th.min_trades * per);

	if (isfinite(f->num.min_trl) && f->num.min_trl > need)
		need = ceil(f->num.min_trl);
	return need > f->num.trades ? need - f->num.trades : 0.0;
}

/* A trade log's returns are whatever the uploader says they are; only a replay adds costs. */
static const char *cost_basis(const struct vd_facts *f)
{
	return f->trusted_returns ? "as the trade log states them" : "after fees, slippage and holding costs";
}

static void why_trades(struct text *t, const struct vd_facts *f)
{
	add(t, "%.0f closed trade%s", f->num.trades, plural(f->num.trades));
	if (f->effective_trades > 0 && round(f->effective_trades) < f->num.trades)
		add(t, ", worth %.0f independent one%s", round(f->effective_trades),
		    plural(round(f->effective_trades)));
	if (f->overlapping > 0)
		add(t, " (%.0f open beside another, up to %.0f at once: %.2fx the exposure of one "
		    "account)", f->overlapping, f->max_concurrent, f->exposure_multiple);
	add(t, ", at least %.0f needed to count as evidence", f->th.min_trades);
}

/* The annualised alpha and its test, or why none was measured. */
static void why_alpha(struct text *t, const struct vd_facts *f)
{
	const struct vd_numbers *n = &f->num;

	if (!n->alpha_known) {
		add(t, "cannot be judged: %s", f->alpha_reason);
		return;
	}
	add(t, "alpha %+.1f %% a year beyond holding the instrument (HAC t %.2f, %.3f needed, "
	    "one-sided), beta %.2f (t %.1f)", pct(n->alpha), n->alpha_t, f->th.min_alpha_t, f->beta,
	    f->beta_t);
}

/* net_edge failed on the edge without the best trades alone. */
static void why_concentrated(struct text *t, const struct vd_facts *f)
{
	const struct vd_numbers *n = &f->num;

	if (isnan(n->mean_net_without) && n->conc_removed >= n->trades) {
		add(t, ": with %.0f trade%s the edge rests on the best one alone", n->trades,
		    plural(n->trades));
		return;
	}
	if (isnan(n->mean_net_without)) {
		add(t, ": the edge without the best trades was not measured");
		return;
	}
	add(t, "; without the best %.0f trade%s (5 %%, at least one)", n->conc_removed,
	    plural(n->conc_removed));
	if (isfinite(n->top_share))
		add(t, ", which carry %.0f %% of the summed net returns,", pct(n->top_share));
	add(t, " the rest average %+.3f %%: the edge rests on them", pct(n->mean_net_without));
}

static void why_net_edge(struct text *t, const struct vd_facts *f, bool pass)
{
	if (!(f->num.trades > 0) || isnan(f->num.mean_net)) {
		add(t, "no closed trades, so no net return to measure");
		return;
	}
	add(t, "mean net return %+.3f %% per trade, %+.2f %% compounded in total, %s",
	    pct(f->num.mean_net), pct(f->num.net_return), cost_basis(f));
	if (f->num.ruined)
		add(t, ": the account was ruined");
	else if (!pass && f->num.mean_net > 0 && f->num.net_return > 0)
		why_concentrated(t, f);
	else if (!pass)
		add(t, ": the costs leave no edge");
}

/* When serial dependence counts fewer trades than there are (by a whole one at least, as the
 * text rounds them): how many, and the figure had every trade been independent. */
static void say_dependence(struct text *t, const struct vd_facts *f, double iid)
{
	if (!(f->effective_trades > 0 && round(f->effective_trades) < f->num.trades) || !isfinite(iid))
		return;
	add(t, " (the trades' lag-1 autocorrelation %+.2f makes %.0f trades count as %.0f "
	    "independent ones; %.3f if each were independent)", f->trades_lag1, f->num.trades,
	    f->effective_trades, iid);
}

static void why_psr(struct text *t, const struct vd_facts *f)
{
	add(t, "PSR %s: the probability that the true Sharpe ratio is above zero, %.2f needed",
	    fig3(f->num.psr).s, f->th.min_psr);
	say_dependence(t, f, f->psr_iid);
}

static void why_dsr(struct text *t, const struct vd_facts *f)
{
	add(t, "DSR %s after deflating for %ld trial%s, %.2f needed", fig3(f->num.dsr).s, f->trials,
	    plural((double)f->trials), f->th.min_dsr);
	say_dependence(t, f, f->dsr_iid);
}

static void why_track_record(struct text *t, const struct vd_facts *f)
{
	if (!isfinite(f->num.min_trl))
		add(t, "%.0f trade%s, but with no positive Sharpe ratio no track record is long enough",
		    f->num.trades, plural(f->num.trades));
	else if (f->num.min_trl < 10)
		add(t, "%.0f trade%s against a minimum track record of fewer than 10 at 95 %% "
		    "confidence (the formula is asymptotic: below 10 trades it says little)",
		    f->num.trades, plural(f->num.trades));
	else
		add(t, "%.0f trade%s against a minimum track record of %.0f at 95 %% confidence",
		    f->num.trades, plural(f->num.trades), ceil(f->num.min_trl));
}

static void why_drawdown(struct text *t, const struct vd_facts *f)
{
	add(t, "worst fall of compounded net equity %.1f %%, at most %.0f %% allowed",
	    pct(f->num.max_dd), pct(f->th.max_dd));
	if (f->num.ruined)
		add(t, "; equity reached zero, the account is ruined");
}

char *vd_gate_why(const struct vd_facts *f, const struct vd_result *r, enum vd_gate g, char *buf,
		  size_t len)
{
	struct text t = text_init(buf, len);

	if (!f->num.stats_ok) {
		add(&t, "not measured: %s", f->stats_reason[0] ? f->stats_reason : "no statistics");
		goto out;
	}
	switch (g) {
	case VD_GATE_TRADES: why_trades(&t, f); break;
	case VD_GATE_NET_EDGE: why_net_edge(&t, f, r->gates[g].pass); break;
	case VD_GATE_PSR: why_psr(&t, f); break;
	case VD_GATE_DSR: why_dsr(&t, f); break;
	case VD_GATE_TRACK_RECORD: why_track_record(&t, f); break;
	case VD_GATE_DRAWDOWN: why_drawdown(&t, f); break;
	case VD_GATE_ALPHA: why_alpha(&t, f); break;
	case VD_GATE_OVERFITTING: vd_why_overfitting(f, buf, len); break;
	default: add(&t, "unknown gate"); break;
	}
out:
	return buf;
}

/* Every kind of refusal, with its count and its first action: a flood of one kind cannot hide
 * another. */
static void add_kinds(struct text *t, const struct vd_facts *f)
{
	if (f->n_kinds == 1 && f->kinds_more == 0) {
		add(t, ", all by rule '%s' (first: %s)", f->kinds[0].rule, f->kinds[0].first_action);
		return;
	}
	for (size_t k = 0; k < f->n_kinds; k++)
		add(t, "%s%ld by rule '%s' (first: %s)", k ? ", " : ": ", f->kinds[k].count,
		    f->kinds[k].rule, f->kinds[k].first_action);
	if (f->kinds_more > 0)
		add(t, ", %ld by other rules", f->kinds_more);
}

/* The look-ahead veto's clauses, each after a "; ": the live decisions that differ (their
 * first bars and what the difference is worth), the truncated re-runs, hindsight. */
static void lookahead_reason(struct text *t, const struct vd_facts *f)
{
	char live[VD_TEXT_MAX * 5];
	const char *sep = *vd_live_veto(&f->live, live, sizeof live) ? "; " : "";

	add(t, "%s", live);
	if (f->num.lookahead_mismatches > 0) {
		add(t, "%s%ld of %ld truncated re-runs gave different signals from the full run", sep,
		    f->num.lookahead_mismatches, f->lookahead_points);
		if (f->first_mismatch_bar >= 0)
			add(t, ", first at bar %ld (%s)", f->first_mismatch_bar, f->first_mismatch_time);
		sep = "; ";
	}
	if (f->num.lookahead_failed > 0) {
		add(t, "%son %ld shorter histor%s the strategy could not run at all: it needs bars "
		    "that had not happened yet", sep, f->num.lookahead_failed,
		    f->num.lookahead_failed == 1 ? "y" : "ies");
		sep = "; ";
	}
	if (strcmp(f->lookahead_stopped, "mismatches") == 0)
		add(t, "; stopped after %ld mismatch%s: the leak is established",
		    f->num.lookahead_mismatches, f->num.lookahead_mismatches == 1 ? "" : "es");
	if (f->num.hindsight) {
		size_t n = strlen(f->hindsight_reason);

		/* one clause of a sentence: without the reason's own full stop */
		add(t, "%shindsight: %.*s", sep,
		    (int)(n && f->hindsight_reason[n - 1] == '.' ? n - 1 : n), f->hindsight_reason);
	}
}

char *vd_veto_reason(const struct vd_facts *f, const struct vd_result *r, enum vd_verdict veto,
		     char *buf, size_t len)
{
	struct text t = text_init(buf, len);

	if (veto == VD_REJECTED_UNSAFE && r->veto_unsafe) {
		if (f->num.blocked_actions > 0)
			add(&t, "the sandbox refused %ld action%s", f->num.blocked_actions,
			    plural((double)f->num.blocked_actions));
		if (f->lookahead_blocked > 0)
			add(&t, " (%ld in the look-ahead re-runs)", f->lookahead_blocked);
		if (f->robust_blocked > 0)
			add(&t, " (%ld in the robustness re-runs)", f->robust_blocked);
		if (f->variants_blocked > 0)
			add(&t, " (%ld in the runs of the declared variants)", f->variants_blocked);
		if (f->n_kinds > 0)
			add_kinds(&t, f);
		else if (f->first_action[0])
			add(&t, " (first: %s, by rule %s)", f->first_action,
			    f->first_rule[0] ? f->first_rule : "unnamed");
		if (f->num.killed)
			add(&t, "%sthe run was stopped at a limit (%s)",
			    f->num.blocked_actions > 0 ? " and " : "", f->run_status);
	} else if (veto == VD_REJECTED_LOOKAHEAD && r->veto_lookahead) {
		lookahead_reason(&t, f);
	}
	return buf;
}

/* Which spread of Sharpe ratios the deflation assumed, and what PBO says, in plain words. */
static void say_trials(struct text *t, const struct vd_facts *f)
{
	char line[VD_TEXT_MAX * 2];

	if (!f->num.stats_ok)
		return;
	if (*vd_search_line(f, line, sizeof line))
		add(t, "%s ", line);
	if (*vd_variance_line(f, line, sizeof line))
		add(t, "%s ", line);
	if (*vd_pbo_words(f, line, sizeof line))
		add(t, "Across the %ld declared variants, %s (PBO %.2f). ", f->variants_ran, line,
		    f->num.pbo);
}

static void say_checked(struct text *t, const struct vd_facts *f)
{
	char clause[VD_TEXT_MAX * 6];

	if (f->strategy && f->run_status[0] && strcmp(f->run_status, "ok") == 0)
		add(t, "The strategy ran in the sandbox and its signals were replayed with next-bar-open fills");
	else if (f->strategy)
		add(t, "The strategy was run in the sandbox (status: %s)",
		    f->run_status[0] ? f->run_status : "unknown");
	else if (f->tradelog)
		add(t, "The uploaded trade log was scored as given");
	else
		add(t, "Nothing usable was uploaded");
	if (f->num.stats_ok)
		add(t, ", %.0f trade%s %s, with the Sharpe ratio deflated for %ld trial%s",
		    f->num.trades, plural(f->num.trades), cost_basis(f), f->trials,
		    plural((double)f->trials));
	if (f->lookahead_ok)
		add(t, "; %ld truncated re-run%s hunted for look-ahead", f->lookahead_points,
		    plural((double)f->lookahead_points));
	if (f->strategy && *vd_live_clause(&f->live, clause, sizeof clause))
		add(t, "; %s", clause);
	add(t, ". ");
	say_trials(t, f);
}

static void say_failing_gates(struct text *t, const struct vd_result *r)
{
	int n = 0;

	for (int g = 0; g < r->ngates; g++) {
		if (r->gates[g].pass)
			continue;
		add(t, "%s%s", n ? ", " : "", vd_gate_name((enum vd_gate)g));
		n++;
	}
}

static int failing_gates(const struct vd_result *r)
{
	int n = 0;

	for (int g = 0; g < r->ngates; g++)
		n += !r->gates[g].pass;
	return n;
}

/* Why nothing could be judged: the run's own error when it stopped (the line it names, or
 * the first bad value), else the replay's reason. */
static void say_incomplete_why(struct text *t, const struct vd_facts *f)
{
	const char *e = f->run_error;
	bool stopped = f->strategy && f->run_status[0] && strcmp(f->run_status, "ok") != 0 && e[0];

	if (!strncmp(e, "BadOutput: ", 11))
		e += 11;
	if (f->num.broken)
		add(t, "Incomplete: nothing could be judged, because a stage file does not hold what its stage writes (%s). ",
		    f->contract);
	else if (stopped && !strcmp(f->run_status, "bad_output"))
		add(t, "Incomplete: nothing could be judged, because signals(df) returned bad output: %s. ", e);
	else if (stopped && (!strcmp(f->run_status, "error") || !strcmp(f->run_status, "crashed")))
		add(t, "Incomplete: nothing could be judged, because the strategy stopped with an error: %s. ", e);
	else if (stopped)
		add(t, "Incomplete: nothing could be judged, because the strategy run ended as %s: %s. ",
		    f->run_status, e);
	else
		add(t, "Incomplete: nothing could be judged, because %s. ",
		    f->replay_reason[0] ? f->replay_reason : "no replay was made");
}

/* Under this many trades no wording credits an edge: the sample is too small to judge. */
#define VD_FEW_TRADES 30

/* The shuffle test ran and cannot tell the timing from luck: then no sentence credits an edge. */
static bool luck_says_no(const struct vd_facts *f)
{
	return f->robust_ok && f->perm_ok && f->perm_p > 0.05;
}

/* WATCH, by what held it there: too few trades, a return that is the market's, a tail not yet
 * met. The edge is credited only where the sample and the shuffle test allow it. */
static void say_watch(struct text *t, const struct vd_facts *f, const struct vd_result *r)
{
	const struct vd_gate_result *g = r->gates;
	char why[VD_TEXT_MAX * 2];
	bool thin = !g[VD_GATE_TRADES].pass || !g[VD_GATE_TRACK_RECORD].pass;

	if (f->num.trades < VD_FEW_TRADES)
		add(t, "The sample is too small to judge: %.0f trade%s (PSR %s, DSR %s, worst drawdown %.1f %%) cannot tell an edge from luck. ",
		    f->num.trades, plural(f->num.trades), fig3(f->num.psr).s, fig3(f->num.dsr).s,
		    pct(f->num.max_dd));
	else if (luck_says_no(f))
		add(t, "The gates on its returns pass (PSR %.3f, DSR %.3f, worst drawdown %.1f %%), but the shuffle test below cannot tell its timing from luck. ",
		    f->num.psr, f->num.dsr, pct(f->num.max_dd));
	else if (thin)
		add(t, "The edge looks sound %s (PSR %.3f, DSR %.3f, worst drawdown %.1f %%), but the evidence is thin: %s. ",
		    f->trusted_returns ? "on the trade log's own returns" : "after costs",
		    f->num.psr, f->num.dsr, pct(f->num.max_dd),
		    vd_gate_why(f, r, g[VD_GATE_TRADES].pass ? VD_GATE_TRACK_RECORD : VD_GATE_TRADES,
				why, sizeof why));
	else
		add(t, "Its returns pass the gates on returns (PSR %.3f, DSR %.3f, worst drawdown %.1f %%). ",
		    f->num.psr, f->num.dsr, pct(f->num.max_dd));
	if (!g[VD_GATE_ALPHA].pass && f->num.alpha_known)
		add(t, "Against the market its return is the market's: beta %.2f (t %.1f), alpha %+.1f %% a year (t %.2f, %.3f needed), %+.1f %% against holding the instrument. ",
		    f->beta, f->beta_t, pct(f->num.alpha), f->num.alpha_t, f->th.min_alpha_t,
		    pct(f->excess_return));
	else if (!g[VD_GATE_ALPHA].pass)
		add(t, "What it earns beyond holding the instrument cannot be judged (%s), so it cannot be READY_FOR_MICRO_LIVE. ",
		    f->alpha_reason);
	if (f->num.tail_unseen)
		add(t, "Its tail is unseen: %s; the pass would rest on a loss that has not come yet. ",
		    f->tail_reason);
}

static void say_decision(struct text *t, const struct vd_facts *f, const struct vd_result *r)
{
	/* room for the live replay's words and the hindsight reason whole, with the others */
	char why[VD_TEXT_MAX * 10];

	switch (r->verdict) {
	case VD_REJECTED_UNSAFE:
		add(t, "Rejected as unsafe: %s. ",
		    vd_veto_reason(f, r, VD_REJECTED_UNSAFE, why, sizeof why));
		break;
	case VD_INCOMPLETE:
		say_incomplete_why(t, f);
		break;
	case VD_REJECTED_LOOKAHEAD:
		if (f->live.scored)
			add(t, "Rejected for look-ahead: %s, so the backtest's trades could not have been taken in real time (the figures score the live decisions). ",
			    vd_veto_reason(f, r, VD_REJECTED_LOOKAHEAD, why, sizeof why));
		else
			add(t, "Rejected for look-ahead: %s, so these trades could not have been taken in real time. ",
			    vd_veto_reason(f, r, VD_REJECTED_LOOKAHEAD, why, sizeof why));
		break;
	case VD_READY_FOR_MICRO_LIVE:
		if (luck_says_no(f))
			add(t, "All %s gates pass (PSR %.3f, DSR %.3f, alpha %+.1f %% a year, t %.2f), though the shuffle test below does not back its timing. ",
			    r->ngates == VD_NGATES ? "eight" : "seven", f->num.psr, f->num.dsr,
			    pct(f->num.alpha), f->num.alpha_t);
		else
			add(t, "All %s gates pass: the edge %s (PSR %.3f, DSR %.3f) over enough trades, and beyond holding the instrument (alpha %+.1f %% a year, t %.2f). ",
			    r->ngates == VD_NGATES ? "eight" : "seven",
			    f->trusted_returns ? "holds on the returns as the trade log states them" :
			    "survives costs", f->num.psr, f->num.dsr, pct(f->num.alpha), f->num.alpha_t);
		break;
	case VD_WATCH:
		say_watch(t, f, r);
		break;
	default:
		if (!f->num.stats_ok) {
			add(t, "No statistics could be computed: %s. ",
			    f->stats_reason[0] ? f->stats_reason : "no trades were replayed");
			break;
		}
		/* every gate passed, and a rule on the prices said no: say_prices says which */
		if (failing_gates(r) == 0)
			break;
		add(t, "Not ready: the ");
		say_failing_gates(t, r);
		add(t, " gate%s failed. ", failing_gates(r) == 1 ? "" : "s");
		break;
	}
}

/* The prices the trades were filled at: an edge inside one bar's bounce, or stale closes. */
static void say_prices(struct text *t, const struct vd_facts *f, const struct vd_result *r)
{
	if (!f->num.stats_ok || r->veto_unsafe || r->incomplete)
		return;
	if (f->num.inside_bounce) {
		add(t, "Its edge lives inside one bar's bounce: %+.1f %% as filled",
		    pct(f->num.net_return));
		if (f->sign_changes_late)
			add(t, ", %+.1f %% filled one bar later", pct(f->bounce_late));
		if (f->sign_changes_spread)
			add(t, ", and %+.1f %% at the configured slippage, which is below half the %.3g bp spread the bars imply (%.3g bp a side charged)",
			    pct(f->bounce_configured), 1e4 * f->spread_estimate, f->slippage_bps);
		add(t, "; no one could trade at those prices, so it cannot be READY_FOR_MICRO_LIVE. ");
	}
	if (f->nb.peak || f->nb.plateau) {
		char nb[1024];

		add(t, "%s", vd_nb_sentence(&f->nb, r->peak_capped, f->trials_source, nb, sizeof nb));
	}
	if (f->num.stale)
		add(t, "Its prices are stale (lag-1 autocorrelation of the returns %+.2f, %.1f %% of closes unchanged): closes that lag the market are not prices anyone could trade at, so it cannot be READY_FOR_MICRO_LIVE. ",
		    f->returns_lag1, pct(f->zero_returns));
}

/* PSR failed: how many trades at this quality would clear it, when any would. */
static void say_psr_fix(struct text *t, const struct vd_facts *f)
{
	if (isfinite(f->num.min_trl) && isfinite(f->sharpe))
		add(t, "The Sharpe ratio of %.3f per trade is too weak for this many trades to rule out luck; about %.0f trades at this quality would be needed. ",
		    f->sharpe, ceil(f->num.min_trl));
	else
		add(t, "The Sharpe ratio per trade (%s) is too weak for any number of trades at this quality to rule out luck. ",
		    fig3(f->sharpe).s);
}

/* net_edge failed: the reason it failed, not always the costs. */
static void say_net_edge_fix(struct text *t, const struct vd_facts *f)
{
	const struct vd_numbers *n = &f->num;

	if (n->ruined || !(n->mean_net > 0 && n->net_return > 0))
		add(t, "After costs there is no edge to measure; a signal that trades less, or earns more per trade, would be needed. ");
	else if (n->conc_removed >= n->trades)
		add(t, "With %.0f trade%s the edge rests on the best one alone; more trades, each judged on its own, would be needed. ",
		    n->trades, plural(n->trades));
	else if (isfinite(n->mean_net_without))
		add(t, "Without its best %.0f trade%s the edge is gone (the rest average %+.3f %%); a signal whose profit does not rest on a few trades would be needed. ",
		    n->conc_removed, plural(n->conc_removed), pct(n->mean_net_without));
	else
		add(t, "The edge without its best trades could not be measured; more trades would be needed. ");
}

static void say_not_ready_fix(struct text *t, const struct vd_facts *f, const struct vd_result *r)
{
	const struct vd_gate_result *g = r->gates;

	if (!f->num.stats_ok) {
		add(t, "Fix that and audit again. ");
	} else if (!g[VD_GATE_NET_EDGE].pass) {
		say_net_edge_fix(t, f);
	} else if (!g[VD_GATE_DSR].pass) {
		if (f->trials > 1)
			add(t, "The best of %ld unskilled variants would show a Sharpe ratio of about %.3f per trade by luck alone, and this one shows %.3f",
			    f->trials, f->sr0, f->sharpe);
		else
			add(t, "With one trial no luck of choosing is priced in (an unskilled strategy would show a Sharpe ratio of about %.3f per trade), and this one shows %.3f",
			    f->sr0, f->sharpe);
		if (f->sharpe > f->sr0)
			add(t, ", not far enough above it for %.0f trade%s to tell skill from luck; fresh data, not more variants, is what would change that. ",
			    f->num.trades, plural(f->num.trades));
		else
			add(t, g[VD_GATE_PSR].pass ? ", so it looks good only until the %ld trials are counted; fresh data, not more variants, is what would change that. "
						   : "; fresh data, not more variants, is what would change that. ",
			    f->trials);
	} else if (!g[VD_GATE_PSR].pass) {
		say_psr_fix(t, f);
	} else if (!g[VD_GATE_OVERFITTING].pass) {
		add(t, "Picking the best of these variants picks luck more often than not; a rule chosen before looking, tested on fresh data, would be needed. ");
	} else if (!g[VD_GATE_DRAWDOWN].pass) {
		add(t, "A worst drawdown of %.1f %% is more than the %.0f %% a small live test should risk; smaller positions or an exit rule would be needed. ",
		    pct(f->num.max_dd), pct(f->th.max_dd));
	}
}

/* What to fix when nothing could be judged, by what the run said about itself. */
static void say_incomplete_fix(struct text *t, const struct vd_facts *f)
{
	if (f->num.broken) {
		add(t, "The audit's files were altered or written by another version of the tool; audit again from the upload. ");
		return;
	}
	bool ft = !strcmp(f->framework, "freqtrade"), bt = !strcmp(f->framework, "backtesting");

	if (!strcmp(f->run_status, "bad_output") && (ft || bt))
		add(t, "%s, and audit again",
		    ft ? "Make the class's populate_entry_trend and populate_exit_trend keep every candle's row, their enter and exit columns 0 or 1"
		       : "Make the Strategy trade through backtesting.py's own buy(), sell() and close() in next()");
	else if (!strcmp(f->run_status, "bad_output"))
		add(t, "Make signals(df) return one value per bar, each -1, 0 or +1 (NaN and None count as flat), and audit again");
	else if ((!strcmp(f->run_status, "error") || !strcmp(f->run_status, "crashed")) && (ft || bt))
		add(t, "Fix what the error names so that the %s runs to the end on the audited candles, and audit again",
		    ft ? "freqtrade class (populate_indicators, populate_entry_trend, populate_exit_trend)"
		       : "backtesting.py Strategy (its init() and next())");
	else if (!strcmp(f->run_status, "error") || !strcmp(f->run_status, "crashed"))
		add(t, "Fix what the error names so that signals(df) runs to the end, and audit again");
	else if (f->strategy)
		add(t, "The strategy's signals could not be used; fix what the reason names and audit again");
	else
		add(t, "Upload a strategy .py defining signals(df), or a trade log, and audit again");
	add(t, f->tradelog ? "; the trade log could not be used either. " : ", or give a trade log to score. ");
}

/* What would lift a WATCH: more trades, a return of its own, a sample that holds a stress. */
static void say_watch_change(struct text *t, const struct vd_facts *f, const struct vd_result *r)
{
	const struct vd_gate_result *g = r->gates;

	if (!g[VD_GATE_TRADES].pass || !g[VD_GATE_TRACK_RECORD].pass)
		add(t, "About %.0f more trade%s at this quality would clear the evidence gates. ",
		    trades_short(f), plural(trades_short(f)));
	if (!g[VD_GATE_ALPHA].pass && f->num.alpha_known)
		add(t, "A return beyond what holding the instrument gives (a positive alpha with t of at least %.3f) is what would change that; holding the market is cheaper. ",
		    f->th.min_alpha_t);
	else if (!g[VD_GATE_ALPHA].pass)
		add(t, "The strategy's code audited on the bars it traded would let its return be set against the market's. ");
	if (f->num.tail_unseen)
		add(t, "A sample that holds a market stress (a crash, a volatility spike), or about %.0f trades (three times these, by the rule of three), would show whether its losses come and how large. ",
		    3.0 * f->num.trades);
}

static void say_change(struct text *t, const struct vd_facts *f, const struct vd_result *r)
{
	switch (r->verdict) {
	case VD_REJECTED_UNSAFE:
		add(t, "Remove everything that is not computing signals (shell, processes, network, files) and audit again; nothing else here can be trusted until then. ");
		break;
	case VD_REJECTED_LOOKAHEAD:
		/* the veto is what stands between a leak and a pass only where the gates passed */
		if (r->gate_verdict == VD_NOT_READY)
			add(t, "The gates alone would also have said NOT_READY; ");
		else
			add(t, "The gates alone would have said %s, which is why the veto exists; ",
			    vd_verdict_name(r->gate_verdict));
		if (f->num.hindsight &&
		    f->num.lookahead_mismatches + f->num.lookahead_failed + f->num.live_leaks == 0)
			add(t, "write a rule that reads the bars, not a list of moments remembered from this chart, and audit it on other data too. ");
		else
			add(t, "make each signal use only bars up to its own close and audit again. ");
		break;
	case VD_INCOMPLETE:
		say_incomplete_fix(t, f);
		break;
	case VD_WATCH:
		say_watch_change(t, f, r);
		break;
	case VD_NOT_READY:
		say_not_ready_fix(t, f, r);
		break;
	default:
		break;
	}
}

/* Findings, not gates: a dependence on the start of history or an edge luck matches is said,
 * and the verdict stands. */
static void say_robust(struct text *t, const struct vd_facts *f, const struct vd_result *r)
{
	if (!f->robust_ok || r->veto_unsafe)
		return;
	if (f->warmup_flagged)
		add(t, "Started later in history it gives other signals on up to %.1f %% of the last bars, so a live start would not reproduce this backtest. ",
		    pct(f->warmup_worst));
	else if (f->warmup_ok)
		add(t, "Started later in history it gives the same signals. ");
	/* The test ranks the timing before costs: a loser's timing beating its shuffles is no
	 * edge, and is not called one. */
	if (f->perm_ok && f->perm_p <= 0.05 && f->num.net_return > 0)
		add(t, "Before costs its timing ranks above shuffles of the same bar returns (p = %.3f over %ld shuffles): its positions use the order of the bars. ",
		    f->perm_p, f->perm_runs);
	else if (f->perm_ok && f->perm_p <= 0.05)
		add(t, "Before costs its timing ranks above shuffles of the same bar returns (p = %.3f over %ld shuffles), but after costs it does not make money: the timing does not pay for its trading. ",
		    f->perm_p, f->perm_runs);
	else if (f->perm_ok)
		add(t, "Shuffles of the same bar returns do as well before costs often enough (p = %.3f over %ld shuffles) that its timing cannot be told from luck. ",
		    f->perm_p, f->perm_runs);
	if (f->warmup_failed + f->perm_failed > 0)
		add(t, "%ld robustness re-run%s failed. ", f->warmup_failed + f->perm_failed,
		    plural((double)(f->warmup_failed + f->perm_failed)));
}

/* The gates passed, but a check that runs the upload did not finish: what was checked, and
 * what would finish it. */
static void say_unfinished(struct text *t, const struct vd_facts *f)
{
	if (!f->lookahead_complete && f->lookahead_ok)
		add(t, "The verdict is held at NOT_READY because the look-ahead check is unfinished: "
		    "%ld of %ld truncated re-runs were checked%s. ", f->lookahead_points, f->lookahead_run,
		    strcmp(f->lookahead_stopped, "budget") == 0 ? " before the time budget (AUDIT_S) ran out" : "");
	else if (!f->lookahead_complete)
		add(t, "The verdict is held at NOT_READY because look-ahead was not checked. ");
	if (!f->robust_complete)
		add(t, "The robustness re-runs were cut short by the time budget, so the verdict is held at NOT_READY. ");
	if (!f->variants_complete)
		add(t, "Not every declared variant ran before the time budget ran out, so the verdict is held at NOT_READY. ");
	if (f->lookahead_complete && f->robust_complete && f->variants_complete) {
		/* a hindsight veto has said it already */
		if (f->num.unreproducible && !f->num.hindsight)
			add(t, "The verdict is held at NOT_READY: %s ", f->hindsight_reason);
		return;
	}
	add(t, "A faster strategy, or a larger AUDIT_S, would let the checks finish. ");
}

static void say_caveats(struct text *t, const struct vd_facts *f, const struct vd_result *r)
{
	if (f->trusted_returns)
		add(t, "The trade log's returns were taken as given, so costs missing from them cannot be seen. ");
	/* Under the unsafe veto nothing the strategy produced counts, checked or not. */
	if (f->strategy && !f->lookahead_ok && !r->veto_unsafe)
		add(t, "Look-ahead could not be checked, so the signals are unproven. ");
	/* a proven leak ends the look-ahead check early by design, and the veto says so */
	if (r->held_back && !r->veto_unsafe && !r->veto_lookahead)
		say_unfinished(t, f);
	/* a passing audit is spoken of only where the gates passed */
	if (r->verdict != VD_READY_FOR_MICRO_LIVE && r->verdict != VD_WATCH) {
		if (f->synthetic_data)
			add(t, "A result on the bundled synthetic data demonstrates the method, not a market.");
	} else if (f->synthetic_data) {
		add(t, "A passing audit is a reason to forward-test small, never a promise of profit, and a result on the bundled synthetic data demonstrates the method, not a market.");
	} else {
		add(t, "A passing audit is a reason to forward-test small, never a promise of profit: how a strategy did on past bars does not promise the next ones.");
	}
}

/* Both uploaded and the log departs from the code: say so, and how. */
static void say_log(struct text *t, const struct vd_facts *f, const struct vd_result *r)
{
	if (!f->reconciled || f->log_consistent || r->veto_unsafe)
		return;
	if (f->log_mean_gap > f->log_tolerance)
		add(t, "The trade log overstates what the code makes, by %.1f bp a trade on average. ",
		    1e4 * f->log_mean_gap);
	if (f->reconcile_statement[0])
		add(t, "%s ", f->reconcile_statement);
}

char *vd_summary(const struct vd_facts *f, const struct vd_result *r, char *buf, size_t len)
{
	struct text t = text_init(buf, len);

	if (f->num.ruined)
		add(&t, "The account was ruined: compounded net equity reached zero%s%s and trading stopped there. ",
		    f->ruin_time[0] ? " at " : "", f->ruin_time);
	say_checked(&t, f);
	say_decision(&t, f, r);
	say_prices(&t, f, r);
	say_log(&t, f, r);
	say_change(&t, f, r);
	say_robust(&t, f, r);
	say_caveats(&t, f, r);
	return buf;
}
