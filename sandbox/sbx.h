/* sbx.h - the sandbox's host-side API: start a zygote for one strategy, run it on a prefix of
 * the bars, get back validated int8 signals and containment events. The only code that ever
 * runs an upload sits behind this interface. */
#ifndef SBX_H
#define SBX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ohlcv.h"

/* Per-run limits. */
struct sbx_limits {
	int wall_s;      /* wall clock per run; the driver SIGKILLs the run's namespace after it */
	int cpu_s;       /* RLIMIT_CPU */
	int mem_mb;      /* RLIMIT_AS */
	int scratch_mb;  /* RLIMIT_FSIZE and the scratch directory's budget */
	int nofile;      /* RLIMIT_NOFILE */
	double cpus;     /* CPU quota per run, in cores (the cgroup's; host side only) */
};

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

/* The result of one run. Release with sbx_result_release. */
struct sbx_result {
	enum sbx_status status;
	size_t n;                  /* bars the run was given */
	int8_t *signals;           /* n validated values in {-1,0,1} when status == SBX_OK, else NULL */
	long wall_ms;
	char error[1024];          /* why, when status != SBX_OK */
	struct sbx_event *events;  /* containment events of this run, in order */
	size_t n_events;
	char *out_log, *err_log;   /* the run's stdout and stderr, capped at 64 KB each, NUL-terminated */
};

struct sbx_zygote;

/* Starts a zygote for the strategy at path: new namespaces, CPython with numpy and pandas
 * imported, the source read (capped) but not yet executed. The zygote holds no market data.
 * Returns the zygote (stop with sbx_zygote_stop), or NULL with the reason in err. */
struct sbx_zygote *sbx_zygote_start(const char *strategy_path, const struct sbx_limits *lim,
				    char *err, size_t errlen);

/* Runs signals() on bars [0, n_visible) of s in a fresh child of the zygote, with layers 2-5
 * installed before the upload is loaded. Blocks until the run ends. Returns 0 with *r filled
 * (whatever the status), or -1 if the sandbox machinery itself failed (err says why). */
int sbx_run(struct sbx_zygote *z, const struct sa_ohlcv *s, size_t n_visible,
	    struct sbx_result *r, char *err, size_t errlen);

/* Runs k prefixes (n_visible[i] bars each) with up to jobs runs at once; results[i] matches
 * n_visible[i]. on_done, when not NULL, is called after each run completes (for progress).
 * Returns 0, or -1 if the machinery failed. */
int sbx_run_many(struct sbx_zygote *z, const struct sa_ohlcv *s, const size_t *n_visible,
		 size_t k, int jobs, struct sbx_result *results,
		 void (*on_done)(size_t done, size_t total, void *arg), void *arg,
		 char *err, size_t errlen);

struct sbx_cgroup;

/* The cgroup the zygote and its runs are in (version 0 with the reason when there is none).
 * Borrowed. */
const struct sbx_cgroup *sbx_zygote_cgroup(const struct sbx_zygote *z);

/* One run of a batch: bars [0, n_visible) of its own series (borrowed). The run is sent those
 * bars and nothing else, so runs on different series (a suffix, a permuted copy) share a
 * zygote without sharing data. */
struct sbx_job {
	const struct sa_ohlcv *s;
	size_t n_visible;
	const char *params;  /* NULL, or keyword arguments as for sbx_run_many_params (borrowed) */
};

/* Runs k jobs with up to jobs runs at once; results[i] matches job[i]. on_done as for
 * sbx_run_many. Returns 0, or -1 if the machinery failed or a job asks for more bars than its
 * series holds (err says why; every result is then released). */
int sbx_run_jobs(struct sbx_zygote *z, const struct sbx_job *job, size_t k, int jobs,
		 struct sbx_result *results,
		 void (*on_done)(size_t done, size_t total, void *arg), void *arg,
		 char *err, size_t errlen);

/* The same, with keyword arguments: params[i], when params and params[i] are not NULL, is the
 * text of a JSON object (at most SBX_PARAMS_MAX bytes, borrowed) whose members run i passes as
 * signals(df, **params[i]). The text is plain data: the run parses it with the json module
 * before the upload is loaded. Returns 0, or -1 if the machinery failed or a text is too long. */
int sbx_run_many_params(struct sbx_zygote *z, const struct sa_ohlcv *s, const size_t *n_visible,
			const char *const *params, size_t k, int jobs, struct sbx_result *results,
			void (*on_done)(size_t done, size_t total, void *arg), void *arg,
			char *err, size_t errlen);

/* Called by sbx_run_prefix as each run ends: results[i] (r) is filled, done of total are. The
 * callee may take what r holds (free r->signals and set it NULL, say) and keep only a summary,
 * so a long audit never holds every run's signals at once. */
typedef void sbx_on_result(size_t i, struct sbx_result *r, size_t done, size_t total, void *arg);

/* Like sbx_run_many for prefixes in time order (n_visible non-decreasing), but each run is
 * forked from a data zygote of this call: a child of z that is sent the bars in time order and
 * forks the run for n_visible[i] when it holds exactly those bars, so no later bar, and not the
 * series' length, is anywhere in the run's memory; its frame is built over those pages without a
 * copy. on_result, when not NULL, sees each result as it comes. The data zygote ends with the
 * call. Returns 0, or -1 if the machinery failed (every result released). */
int sbx_run_prefix(struct sbx_zygote *z, const struct sa_ohlcv *s, const size_t *n_visible,
		   size_t k, int jobs, struct sbx_result *results, sbx_on_result *on_result, void *arg,
		   char *err, size_t errlen);

/* Runs in flight at once on one zygote: the driver never starts more (sbx_run_many clamps to
 * it), and the zygote answers a request past it with SBX_REP_FAILED (EAGAIN). */
#define SBX_MAX_JOBS 64

/* Parses a --jobs value: a whole number from 1 to the most runs a batch holds at once
 * (SBX_MAX_JOBS). Every stage that drives the sandbox reads its --jobs through this, so they
 * share one range. Returns 0 with *jobs set, or -1 (*jobs untouched). */
int sbx_parse_jobs(const char *text, int *jobs);

/* Kills the zygote's namespace, reaps it and removes its cgroup. Safe on NULL. */
void sbx_zygote_stop(struct sbx_zygote *z);

/* Frees what a result holds and zeroes it. Safe on a zeroed struct. */
void sbx_result_release(struct sbx_result *r);

/* Appends r's events to fp as JSON lines, numbering from *seq (advanced). Returns 0 or -1. */
int sbx_events_write(FILE *fp, const struct sbx_result *r, long *seq);

#endif
