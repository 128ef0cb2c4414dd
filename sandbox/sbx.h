/* sbx.h - the sandbox's host-side API: start a zygote for one strategy, run it on a prefix of
 * the bars, get back validated int8 signals and containment events. The only code that ever
 * runs an upload sits behind this interface. */
#ifndef SBX_H
#define SBX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ohlcv.h"
#include "replay_core.h"
#include "sbx_proto.h"  /* the limits and the job count, shared with the runs */

/* How a run ended. */
enum sbx_status {
	SBX_OK = 0,
	SBX_ERROR,               /* the strategy raised, or could not be loaded */
	SBX_KILLED_WALL_CLOCK,
	SBX_KILLED_MEMORY,
	SBX_KILLED_CPU,
	SBX_CRASHED,             /* died on a signal other than the limits above */
	SBX_BAD_OUTPUT,          /* returned something that is not one of -1/0/1 per bar */
	SBX_NOT_RUN,             /* never started (no strategy, zygote failed) */
};

/* The run.json spelling of a status ("ok", "killed_wall_clock", ...). */
const char *sbx_status_name(enum sbx_status st);

/* One containment event, as written to events.jsonl. */
struct sbx_event {
	char action[64];   /* "os.system", "socket.__new__", "open", "wall_clock", ... */
	char rule[64];     /* "no process spawning", "no network", "writes stay in scratch", ... */
	char detail[256];  /* capped, never file contents */
};

/* The refusals of one rule in a run (or a stage's runs): how many, the first and the latest. */
struct sbx_rule_count {
	char rule[64];
	long count;
	struct sbx_event first, last;
};

/* The result of one run. Release with sbx_result_release. */
struct sbx_result {
	enum sbx_status status;
	size_t n;                  /* bars the run was given */
	int8_t *signals;           /* n validated values in {-1,0,1} when status == SBX_OK, else NULL;
				    * a live run's first decided values whatever its status, each
				    * -1, 0, 1 or SBX_LIVE_RAISED (the upload failed at that bar) */
	size_t decided;            /* a live run's decisions made (its signals' valid values) */
	bool entries;              /* signals may also hold a framework run's position with events,
				    * up to SBX_SIGNAL_EVENTS_MAX (sbx_proto.h; da_position gives the
				    * position) */
	size_t nan_as_flat;        /* of them, the NaN or None values taken as flat (0) */
	long declared_search;      /* parameter combinations the file's own search declared
				    * (backtesting.py's optimize()), 0 when it declared none */
	size_t n_tags;             /* a framework run's tag table (sbx_proto.h): its names, */
	char (*tag_names)[SBX_TAG_NAME_MAX + 1];  /* NUL-terminated, validated; NULL when none */
	uint8_t *tag_enter, *tag_exit;  /* n each: 0 none, else a name's place from 1; NULL when none */
	long wall_ms;
	char error[1024];          /* why, when status != SBX_OK */
	struct sbx_event *events;  /* containment events of this run, in order (a rule's latest
				    * takes its last place once its cap is reached) */
	size_t n_events;
	long n_refusals;           /* every event received, kept in events or not */
	struct sbx_rule_count *rules;  /* per rule, in the order first seen */
	size_t n_rules;
	char *out_log, *err_log;   /* the run's stdout and stderr, capped at 64 KB each, NUL-terminated */
	struct sbx_calls *calls;   /* a live run with per-trade callbacks (sbx_job.calls), else NULL */
};

/* What a live run of a class with per-trade callbacks was asked and answered (sbx_proto.h,
 * SBX_LIVE_CALLS), one entry a bar of the series, from the first bar it decided: the trade the
 * host's replay held on the bar and what the callbacks answered for it. Owned by its result. */
struct sbx_calls {
	size_t n;          /* bars of the series */
	int8_t *side;      /* the trade's side sent before the bar, 0 flat (nothing asked) */
	uint32_t *entry;   /* its entry bar */
	uint8_t *ask;      /* the callbacks asked (SBX_ASK_*) */
	double *stop;      /* custom_stoploss's ratio, NAN none */
	uint8_t *exit;     /* 1 where custom_exit said to leave */
	uint8_t *refused;  /* 1 where confirm_trade_entry refused the bar's entry */
	char (*name)[SBX_CALL_NAME_MAX + 1];  /* its reason, "" none given */
	int8_t *sig;       /* the decisions so far (the replay's input; SBX_LIVE_RAISED as flat) */
	double fee_bps;    /* the fee a side the trade's profits were sent with (rp_fee_bps) */
	struct rp_calls rc;     /* the answers as the replay takes them (pointers into the above) */
	struct rp_costs costs;  /* the job's costs with rc */
	struct rp_walk *walk;   /* the host's replay of the trade, bar after bar */
};

struct sbx_zygote;

/* Starts a zygote for the strategy at path: new namespaces, CPython with numpy and pandas
 * imported, the source read (capped) but not yet executed. The zygote holds no market data.
 * Returns the zygote (stop with sbx_zygote_stop), or NULL with the reason in err. */
struct sbx_zygote *sbx_zygote_start(const char *strategy_path, const struct sbx_limits *lim,
				    char *err, size_t errlen);

/* Whether the upload at strategy_path is too large to stage for a zygote: the strategy over
 * SA_STRATEGY_CAP, or freqtrade's parameter file beside it over SBX_PARAMS_FILE_MAX. That is the
 * upload's finding, not the tool's failure: returns 1 with it in why, else 0 (a file that cannot
 * be read otherwise is sbx_zygote_start's to report). */
int sbx_upload_too_big(const char *strategy_path, char *why, size_t whylen);

/* Runs signals() on k prefixes (bars [0, n_visible[i]) of s each), each in a fresh child of the
 * zygote with layers 2-5 installed before the upload is loaded, up to jobs runs at once;
 * results[i] matches n_visible[i] (whatever its status). on_done, when not NULL, is called
 * after each run completes (for progress). Returns 0, or -1 if the machinery failed. */
int sbx_run_many(struct sbx_zygote *z, const struct da_ohlcv *s, const size_t *n_visible,
		 size_t k, int jobs, struct sbx_result *results,
		 void (*on_done)(size_t done, size_t total, void *arg), void *arg,
		 char *err, size_t errlen);

struct sbx_cgroup;

/* The cgroup the zygote and its runs are in (version 0 with the reason when there is none).
 * Borrowed. */
const struct sbx_cgroup *sbx_zygote_cgroup(const struct sbx_zygote *z);

/* One run of a batch: bars [first, n_visible) of its own series (borrowed; first is 0 for a
 * prefix). The run is sent those bars and nothing else, so runs on different series (a suffix,
 * a permuted copy) share a zygote without sharing data, and a run over a window of the last
 * bars holds them exactly as a run over a series that begins at first would. */
struct sbx_job {
	const struct da_ohlcv *s;
	size_t n_visible;
	size_t first;
	const char *params;  /* NULL, or the text of a JSON object (at most SBX_PARAMS_MAX bytes,
			      borrowed) whose members the run passes as signals(df, **params): plain
			      data, parsed with the json module before the upload is loaded */
	/* A live run (0: none): forked holding bars [first, n_visible), it decides bar
	 * n_visible - 1, then is sent bars n_visible .. live_end - 1 one at a time, each only after
	 * it has answered for the one before, and decides each on at most live_window bars up to
	 * it. Its result holds live_end - n_visible + 1 decisions, one a bar, in bar order. */
	size_t live_end;
	size_t live_window;
	/* NULL, or for a live run of a class with per-trade callbacks (custom_stoploss,
	 * custom_exit) the costs and exits the host's replay holds its trade with (borrowed, as
	 * rp_replay takes them): before each bar the run is sent that trade and answers for it
	 * (sbx_proto.h, SBX_LIVE_CALLS), recorded in the result's calls. */
	const struct rp_costs *calls;
	/* A live run that is the backtest the author saw (sbx_proto.h, SBX_LIVE_CLAIMED): forked
	 * holding every bar it is asked about (live_end == n_visible, live_window at least
	 * n_visible - first), it decides bars first .. live_end - 1 from one call on them all, and
	 * is sent the trade and the bar after each answer as any live run is. Its result holds
	 * live_end - first decisions. */
	bool claimed;
};

/* Called as each run of a batch ends: results[i] (r) is filled, done of total are. The callee
 * may take what r holds (free r->signals and set it NULL, say) and keep only a summary, so a
 * long audit never holds every run's signals at once. Returns true to start no further run
 * (the ones in flight finish). */
typedef bool sbx_on_result(size_t i, struct sbx_result *r, size_t done, size_t total, void *arg);

/* How a batch goes. Zero it and set what is needed; jobs 0 means 1. */
struct sbx_batch_opts {
	int jobs;                 /* runs at once, up to SBX_MAX_JOBS: one per slot */
	/* NULL, or for each job the slot (0..jobs-1) that runs it. A slot runs its jobs in index
	 * order, one at a time, so runs of different slots are the ones that overlap. Without it
	 * the next job goes to the next free slot. */
	const int *slot;
	/* On sbx_clock_ms()'s clock, 0 for none: no run starts after it, and a run still going at
	 * it is killed and reported SBX_NOT_RUN, "cut short", with whatever it recorded. */
	long deadline_ms;
	sbx_on_result *on_result;
	void (*on_done)(size_t done, size_t total, void *arg);
	void *arg;
};

/* Runs k jobs. Every run is forked from a data zygote of its slot, a child of z that has been
 * sent the job's series in time order up to exactly the job's bars, so no later bar, and not
 * the series' length, is anywhere in the run's memory, and every run of every stage follows
 * one recipe. A job with a window (first > 0) has the data zygote forget the bars before
 * first, so neither are they. A slot starts a fresh data zygote when its next job has another
 * series, fewer bars than it was sent, or a window that starts before the bars it holds. A job not started (stopped, or past the deadline) is SBX_NOT_RUN with
 * the reason. Returns 0 with every result filled, or -1 if the machinery failed or a job is
 * malformed (err says why; every result is then released). */
int sbx_run_batch(struct sbx_zygote *z, const struct sbx_job *job, size_t k,
		  const struct sbx_batch_opts *o, struct sbx_result *results, char *err, size_t errlen);

/* Milliseconds on the monotonic clock the batch deadline is given on. */
long sbx_clock_ms(void);

/* The deadline (sbx_clock_ms) of a stage that may spend share (0-1) of an audit's budget_s
 * seconds from now, and no more than what is left of them since started (seconds since the
 * epoch the audit began; 0 when not known, and then only the share counts). Never before now. */
long sbx_budget_deadline(double budget_s, double share, long long started);

/* Parses a --started value: seconds since the epoch, 0 or more. Returns 0, or -1. */
int sbx_parse_started(const char *text, long long *started);

/* Parses a --jobs value: a whole number from 1 to the most runs a batch holds at once
 * (SBX_MAX_JOBS). Every stage that drives the sandbox reads its --jobs through this, so they
 * share one range. Returns 0 with *jobs set, or -1 (*jobs untouched). */
int sbx_parse_jobs(const char *text, int *jobs);

/* Kills the zygote's namespace, reaps it and removes its cgroup. Safe on NULL. */
void sbx_zygote_stop(struct sbx_zygote *z);

/* Frees what a result holds and zeroes it. Safe on a zeroed struct. */
void sbx_result_release(struct sbx_result *r);

/* A record of n bars for a live run with callbacks replayed with costs (copied, its calls set to
 * the record's own answers), every answer none. NULL when memory ran out. Free with
 * sbx_calls_free (NULL is safe). */
struct sbx_calls *sbx_calls_new(size_t n, const struct rp_costs *costs);
void sbx_calls_free(struct sbx_calls *c);

/* Appends r's events to fp as JSON lines, numbering from *seq (advanced). Returns 0 or -1. */
int sbx_events_write(FILE *fp, const struct sbx_result *r, long *seq);

/* Adds r's per-rule counts to *acc (n_acc entries, grown with realloc): a rule's count adds
 * up, its first stays the earliest merged, its last becomes r's. Returns 0, or -1 out of memory
 * (*acc as it was). */
int sbx_rules_merge(struct sbx_rule_count **acc, size_t *n_acc, const struct sbx_result *r);

/* The "refusals" array of a stage's JSON: per rule, its count and its first and latest action
 * and detail, in the order first seen. NULL out of memory. */
struct cJSON;
struct cJSON *sbx_rules_json(const struct sbx_rule_count *rules, size_t n);

#endif
