/* verdict_text.h - the plain-English lines of a verdict, generated from its numbers. */
#ifndef SA_VERDICT_TEXT_H
#define SA_VERDICT_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "verdict_live.h"
#include "verdict_neighbourhood.h"
#include "verdict_rules.h"

#define VD_TEXT_MAX 160
/* Kinds of refusal (rules) the verdict names one by one; the rest are counted together. */
#define VD_MAX_KINDS 40

/* What the upstream stages found, beyond the numbers the gates use. Strings are copied in. */
struct vd_facts {
	struct vd_numbers num;
	struct vd_thresholds th;
	bool strategy;                  /* a strategy was uploaded */
	char framework[16];             /* "freqtrade", "backtesting", or "" for signals(df) */
	bool tradelog;                  /* a trade log was uploaded */
	bool trusted_returns;           /* replayed returns came from the trade log as given */
	char run_status[32];            /* run.json status, "" when unknown */
	char run_error[VD_TEXT_MAX];    /* run.json error, its first line (vd_first_line), "" when none */
	bool lookahead_ok;              /* lookahead.json present and ok */
	long lookahead_points;          /* truncated re-runs compared */
	long lookahead_run;             /* truncation points chosen */
	bool lookahead_complete;        /* every point was checked */
	char lookahead_stopped[16];     /* "mismatches", "budget" or "" */
	char lookahead_explanation[VD_TEXT_MAX * 6];
	bool robust_complete, variants_complete; /* every run of theirs ran (true when none due) */
	char hindsight_reason[VD_TEXT_MAX * 4];  /* robustness.json's, "" when none */
	long lookahead_blocked;         /* refusals and kills during those re-runs (also counted
					 * in num.blocked_actions) */
	bool robust_ok;                 /* robustness.json present and ok */
	long robust_blocked;            /* refusals and kills in its re-runs (also counted in
					 * num.blocked_actions) */
	bool warmup_ok, warmup_flagged; /* the warm-up comparison was made; it found a dependence */
	double warmup_worst;            /* the largest disagreement share over the offsets */
	long warmup_failed;             /* warm-up runs that failed */
	bool perm_ok;                   /* the permutation test ranked the real Sharpe ratio */
	double perm_p;                  /* its p-value */
	long perm_runs, perm_failed;    /* permuted runs completed and failed */
	long variants_blocked;          /* refusals and kills during the variant runs (also counted
					 * in num.blocked_actions) */
	long variants_ran;              /* declared variants that ran (0 without VARIANTS) */
	char trials_source[32];         /* stats.json: "declared", "variants", "ledger",
					 * "declared_search", "neighbourhood" or
					 * "neighbourhood_family", "" when unknown */
	char v_source[16];              /* stats.json sr_variance_source: "variants", "knob", "null" */
	double pbo_combinations;        /* CSCV splits at pbo_blocks */
	double pbo_blocks;              /* PBO_BLOCKS, where the details were measured */
	double pbo_min, pbo_max;        /* num.pbo is the median over pbo_counts block counts */
	double pbo_counts;              /* how many block counts (stats.json pbo.by_blocks) */
	double pbo_s_lo, pbo_s_hi;      /* the fewest and most blocks among them */
	char pbo_reason[VD_TEXT_MAX];   /* why PBO is null, "" when it is not */
	struct vd_live live;            /* the live replay (lookahead.json live) and the backtest
					 * beside it (replay.json) */
	long first_mismatch_bar;        /* -1 when none */
	char first_mismatch_time[32];
	char first_action[64];          /* first refusal, "" when none */
	char first_rule[64];
	/* every kind of refusal the stages' "refusals" name, summed over them, in the order met */
	struct vd_kind {
		char rule[64];
		long count;
		char first_action[64];
	} kinds[VD_MAX_KINDS];
	size_t n_kinds;
	long kinds_more;                /* refusals of kinds past VD_MAX_KINDS */
	long trials;                    /* stats.json trials, the effective count; 0 when unknown */
	double sharpe, sr0;             /* per-trade Sharpe and the deflation benchmark */
	double psr_iid, dsr_iid;        /* the same with every trade independent */
	double effective_trades;        /* what the PSR, DSR and trades gate count (serial
					 * dependence and overlap) */
	double autocorr_trades;         /* serial dependence alone */
	double beta, beta_t;            /* against the instrument; NAN when unknown */
	double excess_return;           /* compounded, less the instrument's */
	char alpha_reason[VD_TEXT_MAX * 2]; /* why the regression was not made */
	char tail_reason[VD_TEXT_MAX * 2];  /* stats.json tail.reason */
	double losing_trades;
	/* stats.json declared_search; NAN when the file declares none */
	bool search_hyperopt;
	double search_hyperopt_grid, search_optimize_grid, search_counted;
	/* stats.json tradeable_prices and bounce; NAN when unknown */
	double spread_estimate, slippage_bps, returns_lag1, zero_returns;
	double bounce_late, bounce_configured;
	struct vd_nb nb;                /* stats.json neighbourhood */
	bool sign_changes_late, sign_changes_spread;
	double overlapping;             /* trades open beside another */
	double max_concurrent, exposure_multiple, overlap_trades;
	double trades_lag1;             /* the trades' lag-1 autocorrelation; NAN when unknown */
	char stats_reason[VD_TEXT_MAX]; /* why there are no statistics, "" when there are */
	bool synthetic_data;            /* the bars are the bundled synthetic series */
	char ruin_time[32];             /* when the account was ruined, "" when it was not */
	char replay_reason[VD_TEXT_MAX * 2]; /* why nothing was replayed, "" when something was */
	char signals_reason[VD_TEXT_MAX];    /* why the strategy's signals were set aside */
	bool reconciled;                /* both uploaded: the log was set against the replay */
	bool log_consistent;
	double log_mean_gap;            /* claimed - replayed per matched trade, on average */
	double log_tolerance;           /* the largest gap allowed per trade, a fraction */
	char reconcile_statement[VD_TEXT_MAX * 4];
	char contract[VD_TEXT_MAX * 2]; /* the first stage-file field missing or mistyped, named
					 * with its file (num.broken); "" when none */
};

/* Writes the one-line reason for gate g into buf (always NUL-terminated). Returns buf. */
char *vd_gate_why(const struct vd_facts *f, const struct vd_result *r, enum vd_gate g, char *buf,
		  size_t len);

/* Writes the summary (three to six sentences: what was checked, what decided, what would
 * change it, the caveats) into buf, truncating to len. Returns buf. */
char *vd_summary(const struct vd_facts *f, const struct vd_result *r, char *buf, size_t len);

/* Writes the reason for each veto that applies; returns buf, or "" when the veto does not. */
char *vd_veto_reason(const struct vd_facts *f, const struct vd_result *r, enum vd_verdict veto,
		     char *buf, size_t len);

#endif
