/* verdict_rules.h - the seven readiness gates (eight with declared variants) and the verdict precedence, as a pure function. */
#ifndef SA_VERDICT_RULES_H
#define SA_VERDICT_RULES_H

#include <stdbool.h>

enum vd_verdict {
	VD_REJECTED_UNSAFE = 0,
	VD_INCOMPLETE,
	VD_REJECTED_LOOKAHEAD,
	VD_READY_FOR_MICRO_LIVE,
	VD_WATCH,
	VD_NOT_READY,
};

enum vd_gate {
	VD_GATE_TRADES = 0,
	VD_GATE_NET_EDGE,
	VD_GATE_PSR,
	VD_GATE_DSR,
	VD_GATE_TRACK_RECORD,
	VD_GATE_DRAWDOWN,
	VD_GATE_ALPHA,         /* what it earns beyond holding the instrument */
	VD_GATE_OVERFITTING,   /* only when the strategy declares VARIANTS: kept last */
	VD_NGATES,
};

/* Gate thresholds (config.json "gates"). */
struct vd_thresholds {
	double min_trades;  /* closed trades needed */
	double min_psr;     /* PSR(SR* = 0) needed */
	double min_dsr;     /* DSR(trials) needed */
	double max_dd;      /* largest tolerated drawdown, a fraction */
	double max_pbo;     /* PBO must be below it (only with declared variants) */
	double min_alpha_t; /* the alpha's HAC t-statistic needed (one-sided) */
};

/* Everything the verdict depends on, as numbers. A statistic that is unknown is NAN, and a gate
 * over an unknown number fails. */
struct vd_numbers {
	bool stats_ok;             /* stats.json was present and ok */
	double trades;             /* closed trades */
	double effective_trades;   /* what they count as independent ones (serial dependence and
				    * overlap); the trades gate counts these; NAN: the trades */
	double mean_net;           /* mean net return per trade */
	double net_return;         /* total net return */
	double mean_net_without;   /* mean net return without the best trades (stats.json
				    * concentration: the best 5 %, at least one); NAN when unknown */
	double conc_removed;       /* how many best trades that leaves out */
	double top_share;          /* their share of the summed net returns; NAN when unknown */
	double psr, dsr, min_trl, max_dd;
	long blocked_actions;      /* refusals recorded by the sandbox */
	bool killed;               /* the sandbox stopped the run at a limit */
	long lookahead_mismatches; /* truncated re-runs that disagreed with the full run */
	long lookahead_failed;     /* truncated re-runs that could not run where the full run had
				    * traded: the signal needs bars that had not happened */
	long live_leaks;           /* bars decided live (with only the bars up to each) whose
				    * decision differs from the backtest's, confirmed as look-ahead
				    * by a run on the whole prefix (lookahead.json live) */
	bool unfinished;           /* a check that runs the upload (look-ahead, robustness,
				    * variants) was cut short or could not be made: no pass */
	bool hindsight;            /* the signals are keyed to this data's own dates or prices */
	bool unreproducible;       /* started later, the signals differ far beyond a warm-up */
	bool judged;               /* something was replayed: valid signals or a usable trade log */
	bool broken;               /* a present stage file lacks a field of the stage-file table,
				    * or holds it with another type: nothing can be judged */
	bool ruined;               /* the compounded net equity reached zero */
	bool variants;             /* the strategy declared VARIANTS: the overfitting gate counts */
	double pbo;                /* their probability of backtest overfitting; NAN when unknown */
	bool alpha_known;          /* the regression on the instrument was made */
	double alpha, alpha_t;     /* its annualised alpha and HAC t-statistic */
	bool tail_unseen;          /* no loss of the size the trades' own spread implies */
	bool inside_bounce;        /* a positive net return that is not positive filled one bar
				    * later, or at the slippage the bars' spread sets (stats.json
				    * bounce.inside_bounce): not an edge anyone could trade */
	bool stale;                /* the bars' prices lag the market (tradeable_prices.stale) */
	bool peak;                 /* the edge sits on a peak of its parameters (stats.json
				    * neighbourhood.shape, verdict_neighbourhood.h) */
	bool sealed_given;         /* SEALED bars were given: the sealed gate counts */
	bool sealed_edge;          /* the net edge holds on them (sealed.json) */
	double sealed_value;       /* 1 when the edge holds there, 0 when not, NAN when unknown */
};

struct vd_gate_result {
	double value, threshold;
	bool pass;
};

struct vd_result {
	struct vd_gate_result gates[VD_NGATES];
	int ngates;                    /* gates that count: VD_NGATES with variants, else one fewer */
	enum vd_verdict verdict;       /* after the vetoes */
	enum vd_verdict gate_verdict;  /* what the gates alone say */
	bool veto_unsafe, veto_lookahead;
	bool incomplete;               /* nothing could be judged (nothing replayed, or a stage
					* file broke the table) */
	bool held_back;                /* the gates passed (READY or WATCH), but a check was
					* unfinished, so the verdict is NOT_READY */
	bool tail_capped;              /* every gate passed but the tail is unseen: WATCH */
	bool bounce_capped;            /* READY or WATCH by the gates, but the edge lives inside
					* one bar's bounce: NOT_READY */
	bool stale_capped;             /* READY by the gates, on stale prices: WATCH */
	bool peak_capped;              /* READY by the gates, on a peak of its parameters: WATCH */
	struct vd_gate_result sealed;  /* the sealed gate, counted only when sealed_given */
};

/* The knob table's default thresholds, for a verdict without a readable config.json. */
struct vd_thresholds vd_default_thresholds(void);

/* Scores the gates and applies the precedence: REJECTED_UNSAFE, INCOMPLETE (nothing judged, or
 * a stage file that breaks the table),
 * REJECTED_LOOKAHEAD, READY_FOR_MICRO_LIVE, WATCH, NOT_READY. READY needs every gate; one
 * whose net_edge, psr, dsr, drawdown (and overfitting) pass is WATCH, so a return that is the
 * market's (alpha fails, or cannot be judged) or an unseen tail is WATCH at best. A ruined account fails net_edge
 * and drawdown whatever their numbers say; net_edge also needs an edge without the best trades
 * (a positive mean_net_without), so no verdict rests on a few lucky trades. An edge inside one
 * bar's bounce is NOT_READY whatever the gates say, and one on stale prices or on a peak of its
 * parameters WATCH at best.
 * Pure: never fails, allocates nothing. */
void vd_decide(const struct vd_numbers *n, const struct vd_thresholds *th, struct vd_result *r);

/* Static names ("READY_FOR_MICRO_LIVE", "net_edge"). Never NULL. */
const char *vd_verdict_name(enum vd_verdict v);
const char *vd_gate_name(enum vd_gate g);

#endif
