/* verdict_rules.c - the seven readiness gates (eight with declared variants) and the verdict precedence, as a pure function. */
#include <math.h>

#include "config.h"
#include "verdict_rules.h"

/* The knob table's default of knob k (a number it parses by construction). */
static double knob_default(enum sa_knob_id k)
{
	double x = NAN;
	char err[128];

	sa_knob_parse(k, sa_knobs[k].def, &x, err, sizeof err);
	return x;
}

struct vd_thresholds vd_default_thresholds(void)
{
	struct vd_thresholds th = {
		.min_trades = knob_default(SA_K_GATE_MIN_TRADES),
		.min_psr = knob_default(SA_K_GATE_PSR),
		.min_dsr = knob_default(SA_K_GATE_DSR),
		.max_dd = knob_default(SA_K_GATE_MAX_DD),
		.max_pbo = knob_default(SA_K_GATE_PBO),
		.min_alpha_t = knob_default(SA_K_GATE_ALPHA_T),
	};

	return th;
}

/* Comparisons with NAN are false, so an unknown statistic fails its gate without a special case. */
static struct vd_gate_result at_least(double value, double threshold)
{
	struct vd_gate_result g = { value, threshold, value >= threshold };
	return g;
}

static struct vd_gate_result at_most(double value, double threshold)
{
	struct vd_gate_result g = { value, threshold, value <= threshold };
	return g;
}

static void score_gates(const struct vd_numbers *n, const struct vd_thresholds *th,
			struct vd_gate_result *g)
{
	bool have = n->stats_ok;
	double nan = NAN;

	/* trades that run together or are open at once are one trade's evidence, not several */
	g[VD_GATE_TRADES] = at_least(have ? (isnan(n->effective_trades) ? n->trades :
					    n->effective_trades) : nan, th->min_trades);
	g[VD_GATE_NET_EDGE].value = have ? n->mean_net : nan;
	g[VD_GATE_NET_EDGE].threshold = 0.0;
	/* an edge that is gone without the best few trades rests on luck (an unknown one fails) */
	g[VD_GATE_NET_EDGE].pass = have && !n->ruined && n->mean_net > 0.0 && n->net_return > 0.0 &&
				   n->mean_net_without > 0.0;
	g[VD_GATE_PSR] = at_least(have ? n->psr : nan, th->min_psr);
	g[VD_GATE_DSR] = at_least(have ? n->dsr : nan, th->min_dsr);
	/* An infinite MinTRL (no edge at all) is a real answer: no track record is long enough. */
	g[VD_GATE_TRACK_RECORD].value = have ? n->trades : nan;
	g[VD_GATE_TRACK_RECORD].threshold = have ? n->min_trl : nan;
	g[VD_GATE_TRACK_RECORD].pass = have && !isnan(n->min_trl) && n->trades >= n->min_trl;
	g[VD_GATE_DRAWDOWN] = at_most(have ? n->max_dd : nan, th->max_dd);
	if (n->ruined)
		g[VD_GATE_DRAWDOWN].pass = false;
	/* a positive alpha, significant one-sided; none measured (a trade log alone) fails */
	g[VD_GATE_ALPHA].value = have && n->alpha_known ? n->alpha_t : nan;
	g[VD_GATE_ALPHA].threshold = th->min_alpha_t;
	g[VD_GATE_ALPHA].pass = have && n->alpha_known && n->alpha > 0.0 &&
				n->alpha_t >= th->min_alpha_t;
	g[VD_GATE_OVERFITTING].value = have && n->variants ? n->pbo : nan;
	g[VD_GATE_OVERFITTING].threshold = th->max_pbo;
	g[VD_GATE_OVERFITTING].pass = !n->variants || (have && n->pbo < th->max_pbo);
}

static enum vd_verdict gates_alone(const struct vd_gate_result *g)
{
	/* without variants the overfitting gate passes by construction and is not shown */
	bool sound = g[VD_GATE_NET_EDGE].pass && g[VD_GATE_PSR].pass && g[VD_GATE_DSR].pass &&
		     g[VD_GATE_DRAWDOWN].pass && g[VD_GATE_OVERFITTING].pass;
	bool enough = g[VD_GATE_TRADES].pass && g[VD_GATE_TRACK_RECORD].pass &&
		      g[VD_GATE_ALPHA].pass;

	if (sound && enough)
		return VD_READY_FOR_MICRO_LIVE;
	if (sound)
		return VD_WATCH;
	return VD_NOT_READY;
}

void vd_decide(const struct vd_numbers *n, const struct vd_thresholds *th, struct vd_result *r)
{
	score_gates(n, th, r->gates);
	r->ngates = n->variants ? VD_NGATES : VD_NGATES - 1;
	r->gate_verdict = gates_alone(r->gates);
	/* a pass that rests on a tail not yet met is not evidence enough */
	r->tail_capped = n->stats_ok && n->tail_unseen && r->gate_verdict == VD_READY_FOR_MICRO_LIVE;
	if (r->tail_capped)
		r->gate_verdict = VD_WATCH;
	/* prices no one could trade at: closes that lag the market can be watched, not traded */
	r->stale_capped = n->stats_ok && n->stale && r->gate_verdict == VD_READY_FOR_MICRO_LIVE;
	if (r->stale_capped)
		r->gate_verdict = VD_WATCH;
	/* an edge its parameters' neighbours do not keep is a pick from a search */
	r->peak_capped = n->stats_ok && n->peak && r->gate_verdict == VD_READY_FOR_MICRO_LIVE;
	if (r->peak_capped)
		r->gate_verdict = VD_WATCH;
	/* an edge that a fill one bar later, or the spread, turns into a loss is not sound */
	r->bounce_capped = n->stats_ok && n->inside_bounce && r->gate_verdict != VD_NOT_READY;
	if (r->bounce_capped)
		r->gate_verdict = VD_NOT_READY;
	/* given sealed bars, the edge must hold there too: a gate of soundness, like net_edge */
	r->sealed = (struct vd_gate_result){ n->sealed_value, 1.0, !n->sealed_given || n->sealed_edge };
	if (!r->sealed.pass)
		r->gate_verdict = VD_NOT_READY;
	r->veto_unsafe = n->blocked_actions > 0 || n->killed;
	r->veto_lookahead = n->lookahead_mismatches > 0 || n->lookahead_failed > 0 || n->hindsight ||
			    n->live_leaks > 0;
	r->incomplete = !n->judged || n->broken;
	/* A verdict resting on an unfinished check never passes. */
	r->held_back = (n->unfinished || n->unreproducible) && r->gate_verdict != VD_NOT_READY;
	if (r->veto_unsafe)
		r->verdict = VD_REJECTED_UNSAFE;
	else if (r->incomplete)
		r->verdict = VD_INCOMPLETE;
	else if (r->veto_lookahead)
		r->verdict = VD_REJECTED_LOOKAHEAD;
	else if (r->held_back)
		r->verdict = VD_NOT_READY;
	else
		r->verdict = r->gate_verdict;
}

const char *vd_verdict_name(enum vd_verdict v)
{
	static const char *const names[] = {
		[VD_REJECTED_UNSAFE] = "REJECTED_UNSAFE",
		[VD_INCOMPLETE] = "INCOMPLETE",
		[VD_REJECTED_LOOKAHEAD] = "REJECTED_LOOKAHEAD",
		[VD_READY_FOR_MICRO_LIVE] = "READY_FOR_MICRO_LIVE",
		[VD_WATCH] = "WATCH",
		[VD_NOT_READY] = "NOT_READY",
	};
	return (unsigned)v < sizeof names / sizeof names[0] ? names[v] : "NOT_READY";
}

const char *vd_gate_name(enum vd_gate g)
{
	static const char *const names[] = {
		[VD_GATE_TRADES] = "trades",
		[VD_GATE_NET_EDGE] = "net_edge",
		[VD_GATE_PSR] = "psr",
		[VD_GATE_DSR] = "dsr",
		[VD_GATE_TRACK_RECORD] = "track_record",
		[VD_GATE_DRAWDOWN] = "drawdown",
		[VD_GATE_ALPHA] = "alpha",
		[VD_GATE_OVERFITTING] = "overfitting",
	};
	return (unsigned)g < VD_NGATES ? names[g] : "unknown";
}
