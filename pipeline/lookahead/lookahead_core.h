/* lookahead_core.h - the look-ahead check: which truncated histories to re-run, how their
 * signals compare with the full-history run, and how to say what was found. */
#ifndef LOOKAHEAD_CORE_H
#define LOOKAHEAD_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "ohlcv.h"
#include "sbx.h"

#define LA_RANDOM_POINTS 32   /* seeded random bars added to the position changes */
#define LA_LISTED_MAX 50      /* mismatches and failures listed in full; the rest are counted */
#define LA_FAILED_SHOWN 5     /* failed runs that are findings, shown first in lookahead.json */
#define LA_PASS_STRIDE 64     /* the first pass takes every 64th point (and the last) */
#define LA_PASSES 6           /* further passes, each halving the stride, until every point */
#define LA_RARE 10            /* "rare": at most one compared run in this many disagreed */

/* The truncation points: bar indices t, sorted and distinct; a run at t sees bars [0, t]. */
struct la_points {
	size_t n;
	size_t *t;          /* n entries, owned; free with la_points_release */
	size_t candidates;  /* distinct points before the cap */
	bool capped;        /* candidates > max, so n == max points were spread evenly */
};

/* Chooses the points for a full run of n signals. The primary points are every bar whose
 * position differs from the bar before (bar 0 when it is not flat), n_random bars drawn with
 * GSL's mt19937 seeded with seed (the same on every machine), and the last bar; when more than
 * max, keeps max of them spread evenly over the sorted list, always keeping the last. When they
 * fit, the bar before each change fills the budget left (spread evenly when it does not all
 * fit): a peek that delays a change, holding a position because the next bar is known to pay,
 * acts on a bar where the full run does not change, and the last such bar is the one before
 * the change. candidates counts both kinds. Returns 0 and fills *p (release with
 * la_points_release), or -1 when n or max is 0 or memory ran out (*p is then empty). */
int la_points_choose(const int8_t *full, size_t n, size_t max, unsigned long seed,
		     size_t n_random, struct la_points *p);

/* Frees the points and zeroes *p. Safe on a zeroed or released struct. */
void la_points_release(struct la_points *p);

/* The order the p->n points run in and the slot (0..jobs-1) of each: order[i] is an index into
 * p->t, slot[i] its slot. Passes go from coarse to fine (every LA_PASS_STRIDE-th point and the
 * last, then each pass halves the stride), so a check cut short has covered the whole history
 * evenly; within a pass the points are cut into jobs stretches of about equal cost (the first
 * pass at a guessed fixed price a run, the later ones refitted: la_fixed_bars), each in
 * time order in one slot, so the runs that overlap are a stretch apart in history, never
 * neighbours. The same points and jobs give the same schedule (the refit moves a point from
 * one slot to another, never what is run or found). Returns 0, or -1 (no memory). */
int la_schedule(const struct la_points *p, int jobs, size_t *order, int *slot);

/* The largest fixed price la_fixed_bars gives: a run's cost that does not grow with its bars. */
#define LA_FIXED_BARS_MAX 1e12

/* A run's fixed price in bars, from what m runs cost: the least-squares line ms = a + b bars,
 * a / b (0 when a <= 0; LA_FIXED_BARS_MAX when the cost does not grow with the bars; the first
 * pass's guess when m < 2 or every run had the same bars). The process's price is most of a
 * run: the honest demo's runs over 200 000 bars cost a fixed price of some 570 000 bars, where
 * the guess of 2048 gave the early stretch 71 % of a pass's runs and 1.7 times the later one's
 * time (15.2 s against 8.9 s in the last pass; 12.7 against 13.5 refitted). */
double la_fixed_bars(const size_t *bars, const double *ms, size_t m);

/* Cuts one pass, order[0..m) (indices into p->t, in time order), into jobs stretches of about
 * equal cost at fixed_bars a run, as la_schedule does, writing slot[0..m). */
void la_split(const struct la_points *p, const size_t *order, size_t m, int jobs, double fixed_bars,
	      int *slot);

/* The pass (0..LA_PASSES) of the i-th of k sorted points: the schedule runs pass 0 first, and
 * its passes are contiguous in it. */
int la_pass_of(size_t i, size_t k);

/* The window: a truncated run at t is given the last bars up to t, [first, t], and compared
 * with the full run on those after its warm-up; one that disagrees there or fails is run
 * again over the whole prefix [0, t], and only that run decides. A window that starts at bar
 * 0 is the whole prefix. */
#define LA_WINDOW_FLOOR 1024   /* the fewest bars a measured window holds */
#define LA_PROBES 3            /* later starts run to measure the strategy's memory */
#define LA_PROBE_BARS 8192     /* bars each of them runs over, at most */
#define LA_PROBE_TAIL 64       /* the last bars of a probe that ends before the history, not
				* compared: a peek's horizon, not the strategy's memory */

struct la_window {
	size_t bars;               /* bars a window holds now */
	size_t warm;               /* of them, the first not compared (the measured memory) */
	size_t initial;            /* bars before any growth */
	size_t initial_warm;       /* its warm-up then */
	const char *source;        /* "knob", "measured", "startup_candle_count" or "floor" (static) */
	size_t measured;           /* bars the later starts needed to agree with the full run */
	size_t startup;            /* startup_candle_count as declared, 0 when none */
	size_t confirmations;      /* window runs run again over the whole prefix */
	size_t confirmed_leaks;    /* of them, the prefix run disagreed too or failed as a finding */
	size_t memory_mismatches;  /* of them, the prefix run agreed: the window was too short */
	size_t failed_windows;     /* window runs that failed (each confirmed) */
	size_t grown;              /* times the window doubled */
	size_t grown_at;           /* points run before the first growth */
};

/* The first bar of w's window for a run at point t (0: the whole prefix). */
size_t la_window_first(const struct la_window *w, size_t t);

/* True when a run over bars [first, t] that returned sig[0..len) agrees with the full run: on
 * every bar for a whole prefix (first 0), after its first warm bars for a window (on its last
 * bar at least). False when sig is NULL or len is not the window's. */
bool la_window_agrees(const int8_t *full, size_t t, size_t first, size_t warm, const int8_t *sig,
		      size_t len);

/* How many bars a run started at bar start (its len signals sig) needed before its signals
 * agreed with the full run to its end: one past its last disagreeing bar, 0 when none. Its last
 * tail bars are not looked at: a run that ends before the history does disagrees there when the
 * strategy peeks (the bars it would peek at are not in it), which is no memory. */
size_t la_probe_memory(const int8_t *full, size_t start, const int8_t *sig, size_t len, size_t tail);

/* Sets *w's size from knob (LOOKAHEAD_WINDOW, 0 = measured), startup (startup_candle_count, 0
 * when none) and memory (what the later starts needed): twice the larger memory, at least
 * LA_WINDOW_FLOOR, or the knob's bars; the warm-up is the memory, at most half the window. The
 * counts are left as they are. */
void la_window_choose(struct la_window *w, size_t knob, size_t startup, size_t memory);

/* Doubles the window (its warm-up becomes its first half) for the runs from point at on. */
void la_window_grow(struct la_window *w, size_t at);

/* The window's sentence for lookahead.json: its size and why, its confirmations and growth.
 * Returns buf (always NUL-terminated). */
char *la_window_note(const struct la_window *w, char *buf, size_t len);

/* lookahead.json's window object. Caller frees. */
cJSON *la_window_json(const struct la_window *w);

/* What one truncated run gave back, as the host saw it. Every pointer is borrowed. */
struct la_run {
	bool ok;                /* the run completed and returned valid signals */
	size_t n;               /* signals returned (must be t + 1 to be compared) */
	const int8_t *signals;  /* n values in {-1, 0, 1} when ok */
	const char *status;     /* "ok", "error", "killed_wall_clock", ... */
	const char *error;      /* why, when not ok; may be NULL */
	bool not_run;           /* never ran, or was cut short (the budget, a stop): not checked */
};

/* A truncated run that disagreed with the full run: its first disagreeing bar. */
struct la_mismatch {
	size_t point;       /* the run saw bars [0, point] */
	size_t bar;         /* first bar in [0, point] whose signal differs */
	int full, truncated;
};

/* A truncated run that could not be compared (raised, hit a limit, bad output). */
struct la_failure {
	size_t point;
	char status[32];
	char error[240];
};

/* What the comparison found. Plain data, no heap: zero it, fill it with la_compare. */
struct la_report {
	/* The run at the last bar hides nothing, so a difference there means the signals are not
	 * repeatable (randomness, clock, leftover state); repeat holds that run's first one. */
	bool unrepeatable;
	struct la_mismatch repeat;
	/* Failed runs that saw a bar where the full run held a position: the backtest traded
	 * signals the strategy could not give from the history known then. A run that fails
	 * while the full run was flat on every bar it saw (a warm-up needing more history) is
	 * listed but is no finding: nothing traded rested on it. */
	size_t failed_count;
	struct la_failure failed[LA_FAILED_SHOWN];
	size_t n_failed;              /* listed in failed[], the first in point order */
	size_t first_traded;          /* the full run's first non-flat bar (n when none) */
	size_t points_run;            /* the points chosen */
	size_t points_checked;        /* runs that completed and were compared */
	size_t points_not_run;        /* runs not started or cut short: not checked */
	size_t candidate_points;
	bool capped;
	bool newest_only;             /* every mismatch was on its run's newest bar alone */
	size_t mismatch_count;        /* runs whose signals in [0, t] differ from the full run */
	size_t failed_runs;           /* runs that did not complete, findings or not */
	size_t n_mismatches;          /* listed below, in point order, at most LA_LISTED_MAX */
	struct la_mismatch mismatches[LA_LISTED_MAX];
	size_t n_failures;
	struct la_failure failures[LA_LISTED_MAX];
	/* How the check ended early, if it did: set by the caller after la_compare. */
	enum la_stop { LA_STOP_NONE, LA_STOP_MISMATCHES, LA_STOP_BUDGET, LA_STOP_LIVE } stopped;
	size_t stop_after;            /* LOOKAHEAD_STOP_AFTER, for the sentence */
};

/* Compares runs[i] (the run at p->t[i]) with the full signals full[0..n). A run not run is
 * not checked; one that did not complete, or returned other than t + 1 signals, is a failure,
 * not a mismatch, and a finding (failed_count) once the full run held a position on a bar it
 * saw. Returns 0 and fills *rep, or -1 when a point lies outside the full run (*rep is then
 * zeroed). */
int la_compare(const int8_t *full, size_t n, const struct la_points *p,
	       const struct la_run *runs, struct la_report *rep);

/* True when every mismatch was on its run's newest bar alone and at most one compared run in
 * LA_RARE disagreed: the strategy recomputes its last bar differently (not a peek at prices). */
bool la_newest_bar_noise(const struct la_report *rep);

/* "long", "short" or "flat" for +1, -1, 0 (anything else is "flat"). Static string. */
const char *la_signal_word(int s);

/* Writes the one-line explanation of rep for a person who is not a quant into buf (always
 * NUL-terminated). times[0..n) are the bar times (seconds since the epoch, UTC). Returns buf. */
char *la_explain(const struct la_report *rep, const int64_t *times, size_t n,
		 char *buf, size_t len);

/* What the stage needs from config.json. */
struct la_config {
	size_t max;
	unsigned long seed;
	size_t stop_after;      /* LOOKAHEAD_STOP_AFTER: mismatches that establish a leak */
	size_t window;          /* LOOKAHEAD_WINDOW: bars a window holds, 0 = measured */
	size_t live_bars;       /* LIVE_BARS: bars decided live at most (the live replay) */
	double audit_s;         /* AUDIT_S: the audit's time budget */
	struct sbx_limits lim;  /* as the sandbox stage reads them */
};

/* Reads lookahead {max, seed, stop_after, window}, budget {audit_s} and limits {...} from a config tree, with defaults for what is
 * absent. Returns 0, or -1 with a reason in why when a value is present but unusable. */
int la_config_read(const cJSON *cfg, struct la_config *c, char *why, size_t whylen);

/* Takes the full-history signals out of a run.json tree that must describe a completed,
 * uncontained run over n_bars bars. Returns 0 with *sig (caller frees) holding n_bars values,
 * or -1 with *sig NULL and a reason a person can act on in why. */
int la_full_signals(const cJSON *run, size_t n_bars, int8_t **sig, char *why, size_t whylen);

/* Builds lookahead.json from rep: ok, clean, complete, counts, first_mismatch, mismatches,
 * failed (the findings), failures (every failed run), stopped and the explanation. clean needs
 * no mismatch and no failure that is a finding; complete, every point checked. Returns a new
 * tree (caller frees with cJSON_Delete). */
cJSON *la_report_json(const struct la_report *rep, const int64_t *times, size_t n);

/* The live replay: every bar decided as a live bot would decide it, from the bars up to it and
 * nothing else. A live run is one sandboxed process fed one bar at a time (sbx_job.live_end),
 * which answers for a bar before the next exists for it; each decision sees the last window
 * bars (the measured window). A decision that differs from the full-history run is run again
 * over the whole prefix: where that agrees with the full run the window was shorter than the
 * strategy's memory (the prefix's decision is the live one, and the window grows for another
 * replay); where it disagrees the backtest used bars that had not happened: a leak. Bars past
 * LIVE_BARS or the time budget are sampled with a seed drawn for this audit alone. */
#define LA_LIVE_CONFIRM 32      /* differing decisions confirmed on the whole prefix, at most */
#define LA_LIVE_GROW 3          /* replays with a doubled window, at most */
#define LA_LIVE_SAMPLE 299      /* sampled bars: a veto on 1 % of them is missed with p < 0.05 */
#define LA_LIVE_SHARE 0.01      /* the share of bars the sample's bound is stated for */
#define LA_LIVE_LISTED 10       /* differences listed in lookahead.json */
#define LA_CALL_STOP_TOL 1e-9   /* custom_stoploss ratios closer than this (relative) agree */
#define LA_LIVE_STRETCHES 8     /* live runs over the history, each after its own warm-up (so
				 * many whatever the cores: the same decisions on every machine) */
#define LA_LIVE_SPREAD 8        /* stretches each of those is cut into when not every bar fits */
#define LA_LIVE_REPLAY_SHARE 0.75  /* of the time left, what a replay may spend: the rest is the
				    * confirmations' and the sample's */

/* What one bar's live decision came to. */
enum la_live_state {
	LA_LIVE_UNDECIDED = 0,  /* not decided live (past the budget): the backtest's value is scored */
	LA_LIVE_AGREE,          /* decided live, the same as the backtest */
	LA_LIVE_DIFFER,         /* decided live otherwise, not confirmed on the whole prefix */
	LA_LIVE_LEAK,           /* the whole prefix disagrees with the backtest too: look-ahead */
	LA_LIVE_MEMORY,         /* the whole prefix agrees with the backtest: the window was short */
	LA_LIVE_SAMPLED,        /* past the budget, drawn and decided on its window: agrees */
};

struct la_live_failure {
	size_t bar;
	char status[32];
	char error[240];
};

struct la_live {
	bool ran;               /* the replay was attempted (a strategy, a full run) */
	size_t n;               /* bars */
	size_t window;          /* bars a decision saw at most, after any growth */
	size_t grown;           /* replays with a doubled window */
	size_t budget;          /* LIVE_BARS */
	size_t runs;            /* live runs started */
	size_t decided;         /* bars decided live (each bar once) */
	size_t differing, leaks, memory, unconfirmed;
	size_t unsettled;       /* of the unconfirmed, bars the live bot decided (not raised) */
	size_t confirmations;   /* whole-prefix runs */
	size_t sample_drawn, sample_disagree;
	bool cut;               /* the time budget ended the replay before every planned bar */
	size_t raised;          /* decisions where the upload raised: no position taken */
	size_t failed_runs;
	struct la_live_failure failures[LA_FAILED_SHOWN];
	size_t n_failures;
	int8_t *backtest;       /* borrowed: the full run's n signals */
	int8_t *sig;            /* n: the decisions scored (live where decided, else the backtest's) */
	uint8_t *state;         /* n: enum la_live_state */
	uint8_t *raised_at;     /* n: the live decision there raised (taken as flat) */
	long blocked;           /* refusals in the live runs */
	struct sbx_rule_count *rules;
	size_t n_rules;
	/* A class with per-trade callbacks (la_live_calls): the costs and exits the host holds its
	 * trade with (borrowed), and what the last replay's run was asked and answered (owned). */
	const struct rp_costs *calls;
	struct sbx_calls *record;
	/* The claimed run's (the whole history analysed once, as the author's backtest; owned):
	 * its callbacks' answers with the host's trade replayed on them, and the bars where they
	 * answered the same trade otherwise than the live run did (the first LA_LIVE_LISTED). */
	struct sbx_calls *claimed;
	size_t call_leaks;
	size_t call_at[LA_LIVE_LISTED];
	size_t n_call_at;
};

/* Whether inspect.json (inspect_path, NULL for none) says the framework class defines
 * freqtrade's per-trade callbacks the live replay answers (strategy.callbacks: a def of
 * custom_stoploss, custom_exit or confirm_trade_entry in its body): its live replay is then one run in lock-step with
 * the host's replay of its trade, whatever the budget (a trade's state needs every bar since
 * its entry), and a claimed run beside it. A class that defines them but does not use them is
 * asked and answers nothing; one that only inherits them is refused in its live run. */
bool la_live_wants_calls(const char *inspect_path);

/* The costs and exits of such a replay, as the replay stage reads them (config.json's costs with
 * the spread floor of bars, inspect.json's exits: none without it), into c and x (c->exits is
 * x). Returns 0, or -1 with why. */
int la_live_calls_costs(const cJSON *cfg, const char *inspect, const struct da_ohlcv *bars,
			struct rp_costs *c, struct rp_exits *x, char *why, size_t len);

/* The stretches of a replay: [lo[i], hi[i]) for i < *k, in time order, every bar when
 * n <= budget (LA_LIVE_STRETCHES stretches, fewer for fewer bars), else LA_LIVE_STRETCHES *
 * LA_LIVE_SPREAD stretches spread evenly over the history holding budget bars in all. lo and
 * hi hold LA_LIVE_STRETCHES * LA_LIVE_SPREAD entries. */
void la_live_plan(size_t n, size_t budget, size_t *lo, size_t *hi, size_t *k);

/* Runs the live replay on z (bars, the full run's signals full, the window measured for the
 * truncated runs, first_traded the full run's first non-flat bar) until deadline. Fills *lv
 * (release with la_live_release). Returns 0, or -1 with why when the sandbox itself failed. */
int la_live_run(struct sbx_zygote *z, const struct da_ohlcv *bars, int8_t *full, size_t first_traded,
		const struct la_config *c, size_t window, int jobs, long deadline, struct la_live *lv,
		char *why, size_t len);

/* True when every bar was decided live or sampled and no live run failed (a difference left
 * unsettled is reported, and the live decision scored: it was made with only the past). */
bool la_live_complete(const struct la_live *lv);

/* True when the live replay settled every bar itself: each decided live (none sampled), no live
 * run failed, and every bar agreed with the backtest or was shown to be the strategy's memory.
 * The truncated runs after their first pass would then only check again what it checked. */
bool la_live_settled(const struct la_live *lv);

/* lookahead.json's live object (signals included). Caller frees. */
cJSON *la_live_json(const struct la_live *lv, const int64_t *times);

/* Adds lv to the points' lookahead.json res: its "live" object; a confirmed leak makes res not
 * clean (mismatch_count stays the truncated runs'); res is complete when lv is (the truncated
 * runs, cut short or not, confirm it); the explanation
 * begins with what the live replay found. */
void la_live_merge(cJSON *res, const struct la_live *lv, const int64_t *times);

void la_live_release(struct la_live *lv);

#endif
