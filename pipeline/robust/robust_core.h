/* robust_core.h - the robustness checks the sandbox makes affordable: does the signal depend on
 * where history starts (warm-up sensitivity), and does the edge beat the same bars in a random
 * order before costs (a permutation test of its timing). Pure computation: no I/O, no sandbox, no exit. */
#ifndef ROBUST_CORE_H
#define ROBUST_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "ohlcv.h"
#include "replay_core.h"
#include "sbx.h"

#define RB_MAX_OFFSETS 8        /* warm-up offsets at most */
#define RB_TAIL_PCT 40          /* the compared tail: the last 40 % of bars */
#define RB_MAX_OFFSET_PCT 60    /* so every start lies before the tail */
#define RB_MAX_SPANS 200        /* disagreeing spans listed per offset; the rest are counted */
#define RB_MAX_EVENTS 50        /* refusals listed; all are counted */

/* What the stage reads from config.json. */
struct rb_config {
	size_t n_offsets;
	int offset_pct[RB_MAX_OFFSETS];  /* each 1..RB_MAX_OFFSET_PCT, increasing */
	double flag_share;               /* flagged when a disagreement exceeds it */
	size_t permutations;
	unsigned long seed;
	struct rp_costs costs;
	struct sbx_limits lim;
};

/* Parses a list like "10,25,50" (whole percentages, increasing, each 1..60, at most
 * RB_MAX_OFFSETS). Returns 0 and fills pct and *n, or -1 with the reason in why. */
int rb_offsets_parse(const char *text, int *pct, size_t *n, char *why, size_t whylen);

/* What the runs read (robust): robust {warmup_offsets, permutations, seed} and limits {...}
 * through the knob table; zeroes *c first. Returns 0, or -1 with the reason in why. */
int rb_runs_config_read(const cJSON *cfg, struct rb_config *c, char *why, size_t whylen);

/* What the scoring reads (robust_score): robust.warmup_flag and costs {...}; the rest of *c
 * comes from the runs' index. Returns 0, or -1 with the reason in why. */
int rb_score_config_read(const cJSON *cfg, struct rb_config *c, char *why, size_t whylen);

/* Reads run.json at run_path (*run, caller frees), the bars of data through cfg (*bars, release
 * with da_ohlcv_release) and the full run's signals (*full, caller frees), which must have
 * completed uncontained: a refused upload is not run again. Returns 0, or -1 with the reason in
 * why (the runs and their scoring both say it). */
int rb_full_run_read(const char *run_path, const char *data, const cJSON *cfg, cJSON **run,
		     struct da_ohlcv *bars, int8_t **full, char *why, size_t whylen);

/* The first bar of the compared tail of n bars. */
size_t rb_tail_start(size_t n);

/* The bar a start offset of pct % of n bars begins at. */
size_t rb_offset_bar(size_t n, int pct);

/* A view of bars [k, s->n) of s: every column borrowed, nothing copied. */
struct da_ohlcv rb_suffix(const struct da_ohlcv *s, size_t k);

/* One warm-up run compared with the full run on the tail. */
struct rb_warm_run {
	size_t offset;          /* the run saw bars [offset, n) */
	int pct;
	bool ok;                /* the run completed with one valid signal a bar */
	char status[32];
	char error[240];        /* why, when not ok */
	size_t differing;       /* tail bars whose signal differs */
	double disagreement;    /* differing / compared bars; NAN when not ok */
	long first_bar;         /* first differing bar (index into the full series), -1 when none */
	size_t n_spans;         /* runs of consecutive differing bars, at most RB_MAX_SPANS */
	size_t spans[RB_MAX_SPANS][2];  /* [first, last] bar of each */
	size_t spans_total;     /* every span, listed or not */
	size_t settled;         /* the first bar from which it agrees with the full run to the end */
	size_t later_from;      /* the later-start check compares bars [later_from, n) */
	double later_disagreement;  /* their share that differs; NAN when not judged */
};

struct rb_warmup {
	size_t n_bars, tail_start, compared_bars;
	size_t n_runs;
	struct rb_warm_run run[RB_MAX_OFFSETS];
	size_t failed_runs;
	long first_bar;         /* the earliest differing bar over every offset, -1 when none */
	int first_pct;          /* the offset it was found at */
	bool flagged;           /* any offset's disagreement above the flag share */
	long warmup_bars;       /* the measured warm-up (rb_warm_measure), -1 when not measured */
};

/* Compares run sig (len signals over bars [offset, n)) with the full run full[0..n) on the
 * tail into *w. sig NULL means the run failed (status and error say why). */
void rb_warm_compare(const int8_t *full, size_t n, size_t offset, int pct, const int8_t *sig,
		     size_t len, const char *status, const char *error, struct rb_warm_run *w);

/* Sets w's totals (failed runs, the first disagreement, flagged) from its runs. */
void rb_warm_finish(struct rb_warmup *w, double flag_share);

/* The warm-up measured on the earliest completed start: the bars after it until it agrees with
 * the full run to the end, when that comes before the compared tail; -1 otherwise (a run that
 * never settles has no warm-up to grant). Sets w->warmup_bars and returns it. */
long rb_warm_measure(struct rb_warmup *w);

/* The later-start check of one completed run r (sig its signals over bars [r->offset, n)):
 * the share of bars differing from the full run on [max(tail, offset + warmup), n), past one
 * measured warm-up (warmup -1 or 0: the tail as it is); not judged (NAN) when fewer than
 * RB_LATER_MIN_SHARE of the bars are left. */
void rb_later_compare(const int8_t *full, size_t n, const int8_t *sig, long warmup,
		      struct rb_warm_run *r);

/* A permuted copy of a series: the log returns of close shuffled, each bar's open, high and low
 * kept in proportion to its own close and its volume moved with it; bar 0 and the times stay.
 * The times are borrowed from the original; the price columns are owned. */
struct rb_perm {
	struct da_ohlcv s;
	double *cols;   /* the five owned columns, one allocation */
};

/* Fills *p with a permutation of s drawn with rng (a gsl_rng *, passed as void * so this header
 * needs no GSL). order is scratch of s->n - 1 entries. Returns 0, or -1 when memory ran out. */
int rb_perm_make(const struct da_ohlcv *s, void *rng, size_t *order, struct rb_perm *p);

/* Frees what p owns and zeroes it. Safe on a zeroed struct. */
void rb_perm_release(struct rb_perm *p);

/* The permutation test's statistic: the per-bar Sharpe ratio (mean / sd, ddof 1) of the per-bar
 * returns (st_curve_returns) of the gross equity of signals replayed on s with no costs at all,
 * into *sharpe (NAN when they have no spread); *trades gets the trade count. Costs are left out on both sides because they
 * depend on how often a run trades, and a strategy re-run on shuffled bars flips more often
 * than on the real ones: with costs in, a loser beats its shuffles by paying less. Per bar,
 * not per trade, because the shuffles change the number of trades and the bars are fixed.
 * The declared exits x (NULL: none) fill as in every replay. Returns 0, or -1 when memory ran
 * out. */
int rb_sharpe(const struct da_ohlcv *s, const int8_t *signals, const struct rp_exits *x,
	      double *sharpe, size_t *trades);

/* The net return of signals replayed on s with costs c (the replay's), into *net. Returns 0,
 * or -1 when memory ran out. */
int rb_net_return(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
		  double *net);

/* What the permutation test found. null[] holds one Sharpe per completed run. */
struct rb_permtest {
	size_t requested, runs, failed_runs, undefined;  /* undefined: permuted Sharpe was NAN */
	size_t *trades;       /* runs entries (owned): the trades of each completed run */
	double real_sharpe;   /* per bar, before costs (rb_sharpe) */
	size_t real_trades;
	double real_net_return;  /* the real run after costs: the test's words depend on its sign */
	double *null;         /* runs entries (owned), undefined ones counted as 0 */
	size_t at_least;      /* permuted Sharpe >= the real one */
	double null_mean, null_p95, p_value;  /* NAN when runs is 0 or the real Sharpe is NAN */
};

/* Sets at_least, null_mean, null_p95 (GSL's quantile of the sorted null) and p_value
 * = (1 + at_least) / (1 + runs) from null[0..runs) and real_sharpe. Sorts null. */
void rb_perm_finish(struct rb_permtest *t);

/* Frees the null distribution. */
void rb_permtest_release(struct rb_permtest *t);

/* The warmup object of robustness.json (times: the full series' bar times). Caller frees. */
cJSON *rb_warmup_json(const struct rb_warmup *w, double flag, const int64_t *t);

/* The permutation object of robustness.json, null_sharpes sorted. Caller frees. */
cJSON *rb_perm_json(const struct rb_permtest *p, unsigned long seed);

/* --- hindsight (robust_hindsight.c) -------------------------------------------------------- */

#define RB_ROTATIONS 3                 /* runs with the prices moved against the calendar */
#define RB_ROTATION_QUARTER 13         /* whole quarters of weeks when the data holds a year */
#define RB_NUDGE_OF_RANGE 0.05         /* the largest tick nudge: this share of the median bar range */
#define RB_PROFIT_FLAG 0.5             /* hindsight when less than this share of the profit survives */
#define RB_HINDSIGHT_MIN_TRADES 10     /* too few trades to judge below this */
#define RB_MATERIAL_P 0.95             /* a material profit: t of its trades >= this normal quantile */
#define RB_LATER_START_FLAG 0.25       /* a later start disagreeing on more of the tail than this */
#define RB_LATER_MIN_SHARE 0.05        /* a later start is judged on at least this share of the bars */
#define RB_KEYED_MIN_TRADES 10         /* "keyed to the real bars" needs this many real trades */
#define RB_KEYED_SHARE 0.1             /* and the copies' median trades below this share of them */
#define RB_STAY_SHARE 0.9              /* positions stayed put: at this share of the held bars ... */
#define RB_STAY_Z 3.0                  /* ... or earning this many standard errors beyond their share */

/* A series of its own: every column owned (times too), for the moved and nudged copies. */
struct rb_series {
	struct da_ohlcv s;
	int64_t *t;
	double *cols;
};

/* Copies s into *out. Returns 0, or -1 when memory ran out. */
int rb_series_copy(const struct da_ohlcv *s, struct rb_series *out);
void rb_series_release(struct rb_series *s);

/* The bars one week takes at the start of s (its first bar's week), 0 when s is shorter. */
size_t rb_week_bars(const struct da_ohlcv *s);

/* The whole-week shifts for a history of `weeks` whole weeks into shift[RB_ROTATIONS]: a quarter,
 * a half and three quarters of it, in whole quarters of a year (13 weeks) when it holds a year.
 * Returns how many (distinct, each 1..weeks-1), 0 when weeks < 2. */
size_t rb_rotation_weeks(size_t weeks, long *shift);

/* Moves the prices of copy (a copy of s) against its calendar: bar i of the first 1 + period bars
 * takes the close-to-close return, bar shape (open, high, low in proportion to the close) and
 * volume of bar 1 + (i - 1 + shift) mod period; later bars keep theirs; the times stay. With
 * shift and period whole weeks of bars, every bar keeps its weekday and hour. */
void rb_rotate_prices(const struct da_ohlcv *s, size_t shift, size_t period, struct rb_series *copy);

/* The coarsest 10^-d (d = 0..8) every x is a whole multiple of (1e-8 for finer data). */
double rb_resolution(const double *x, size_t n);

/* The largest nudge in ticks for s: RB_NUDGE_OF_RANGE of its median bar range (high - low), at
 * least 2 ticks. */
long rb_ticks_max(const struct da_ohlcv *s, double tick);

/* Moves every price of copy (open, high, low and close of every bar, each on its own) by 1 to
 * ticks_max whole ticks up or down, drawn with rng (a gsl_rng *); the prices stay on the grid,
 * high and low are widened to hold open and close, and no price falls to 0 or below. Each
 * positive volume moves the same way by whole units of its own grid, up to a hundredth of the
 * median volume. */
void rb_nudge_ticks(struct rb_series *copy, double tick, long ticks_max, void *rng);

/* The profit of signals replayed on s with costs c: the plain sum of the trades' net returns
 * (a unit stake per trade) into *profit, the trades into *trades, the t statistic of the
 * per-trade net returns into *t (NAN under 2 trades or no spread). Returns 0, or -1 when memory
 * ran out. */
int rb_profit(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
	      double *profit, size_t *trades, double *t);

/* rb_profit's figures of a replay already made. Returns 0, or -1 when memory ran out. */
int rb_profit_of(const struct rp_result *r, double *profit, size_t *trades, double *t);

struct rb_hindsight {
	double real_profit, real_t;         /* the real run's (rb_profit) */
	size_t real_trades;
	bool material;                      /* enough trades, profit > 0, t >= the quantile */
	size_t week_bars, n_rot;
	long rot_weeks[RB_ROTATIONS];
	double rot_profit[RB_ROTATIONS];    /* NAN when not run; 0 when the run failed */
	char rot_status[RB_ROTATIONS][32];
	double rot_kept;                    /* the median share kept, NAN when not judged */
	size_t stay_bars, stay_held;        /* the real run's held bars; those every move held alike */
	double stay_share, stay_z;          /* their share (NAN with none held); z (rb_stay_measure) */
	bool stayed_put;                    /* the positions stayed where they were under the moves */
	double tick, tick_profit, tick_kept;
	long ticks_max;
	char tick_status[32];
	size_t surrogate_runs, surrogate_median, surrogate_min;
	double later_worst;                 /* the warm-up check's largest disagreement past one warm-up */
	long warmup_bars;                   /* the measured warm-up, -1 when not measured */
	bool calendar_flagged, tick_flagged, keyed_real, later_start;
	bool flagged;                       /* keyed to this data's dates, prices or bars: a veto */
};

/* Marks which of the real run's bars the moved run holds the same position at: stay[i] (1 for
 * every bar before the first moved run) is cleared where moved->eq_pos[i] differs from
 * real->eq_pos[i], so after every moved run it is 1 where all of them agree. */
void rb_stay_mark(const struct rp_result *real, const struct rp_result *moved, unsigned char *stay);

/* The real run's bars held in a position (eq_pos not 0), the share of them every moved run held
 * the same way (stay), and how far the per-bar net returns (st_curve_returns of eq_net) of those
 * bars exceed what as many held bars drawn at random would earn, in standard errors of that
 * draw (NAN when none or all stayed, or the returns have no spread), into h->stay_*. Returns 0,
 * or -1 when memory ran out. */
int rb_stay_measure(const struct rp_result *real, const unsigned char *stay, struct rb_hindsight *h);

/* Sets the shares kept, the surrogate figures from the permuted runs' trade counts, and every
 * flag, from the profits and positions already filled in. The calendar move flags a material
 * profit only when it keeps less than RB_PROFIT_FLAG of it while its positions stayed put
 * (stay_share at least RB_STAY_SHARE, or stay_z at least RB_STAY_Z): a memory of dates trades
 * the same dates whatever the prices, a rule's positions follow the moved prices. */
void rb_hindsight_finish(struct rb_hindsight *h, const size_t *perm_trades, size_t runs,
			 double later_worst, long warmup_bars);

/* Fills the copies the hindsight runs see, copy[0..RB_ROTATIONS]: the prices moved against the
 * calendar by whole weeks (h->n_rot of them, h's week_bars, rot_weeks, tick and ticks_max set
 * from bars), then every price nudged by whole ticks (drawn from seed), last. The same bars and
 * seed give the same copies, so the runs and their scoring build them alike. Returns how many
 * copies, 0 when memory ran out (release each with rb_series_release either way). */
size_t rb_hindsight_copies(const struct da_ohlcv *bars, unsigned long seed, struct rb_hindsight *h,
			   struct rb_series *copy);

/* The hindsight object of robustness.json, with its plain reason. Caller frees. */
cJSON *rb_hindsight_json(const struct rb_hindsight *h);

#endif
