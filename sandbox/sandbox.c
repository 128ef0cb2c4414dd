/* sandbox.c - the sandbox stage: runs an uploaded strategy's signals(df) behind namespaces,
 * Landlock, seccomp, rlimits and an audit hook; writes run.json and events.jsonl. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "config.h"
#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "ohlcv.h"
#include "ohlcv_json.h"
#include "sbx.h"
#include "sbx_proto.h"
#include "sbx_report.h"
#include "sbi_zygote.h"

static const char usage[] =
	"usage: sandbox [--strategy FILE] --data OHLCV.csv --config config.json [--jobs N]\n"
	"               -o run.json --events events.jsonl [--started EPOCH] [--repeat N]\n"
	"\n"
	"Runs signals(df) of the strategy once on every bar, inside new user, network, mount, PID,\n"
	"IPC and UTS namespaces, under Landlock, seccomp, rlimits and a wall clock, with a Python\n"
	"audit hook recording each refused action. Writes run.json (status, signals, limits, logs)\n"
	"and events.jsonl (one line per containment event). Both are written before the upload\n"
	"is loaded, so a crash or a kill still leaves a record. Limits come from config.json; the\n"
	"run also ends when the audit's time budget (budget.audit_s from --started) does.\n"
	"--repeat N runs the same run N times from one zygote (--jobs at once), keeps the last,\n"
	"and prints the time per run to stderr: a benchmark, the outputs are unchanged.\n"
	"\n"
	"exit status: 0 output written (even when \"ok\" is false: a refused or failed run is a\n"
	"finding), 2 bad command line, 3 the sandbox itself could not work.\n";

struct opts {
	const char *strategy, *data, *config, *out, *events;
	int jobs;
	int repeat;
	long long started;  /* when the audit began (seconds since the epoch), 0 when not known */
	double audit_s;     /* the audit's time budget, from config.json */
};

static void parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "strategy", required_argument, NULL, 's' }, { "data", required_argument, NULL, 'd' },
		{ "config", required_argument, NULL, 'c' }, { "jobs", required_argument, NULL, 'j' },
		{ "events", required_argument, NULL, 'e' }, { "help", no_argument, NULL, 'h' },
		{ "repeat", required_argument, NULL, 'r' }, { "started", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end;

	while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		switch (c) {
		case 's': o->strategy = optarg; break;
		case 'd': o->data = optarg; break;
		case 'c': o->config = optarg; break;
		case 'e': o->events = optarg; break;
		case 'o': o->out = optarg; break;
		case 'j':
			if (sbx_parse_jobs(optarg, &o->jobs) < 0)
				sa_usage_die("--jobs wants a number from 1 to %d, '%s'", SBX_MAX_JOBS, optarg);
			break;
		case 'r':
			o->repeat = (int)strtol(optarg, &end, 10);
			if (*end || o->repeat < 1 || o->repeat > 100000)
				sa_usage_die("--repeat wants a number from 1 to 100000, '%s'", optarg);
			break;
		case 'S':
			if (sbx_parse_started(optarg, &o->started) < 0)
				sa_usage_die("--started wants seconds since the epoch, '%s'", optarg);
			break;
		case 'h': fputs(usage, stdout); exit(SA_EXIT_OK);
		default: sa_usage_die("unknown option");
		}
	}
	if (optind < argc)
		sa_usage_die("unexpected argument, '%s'", argv[optind]);
	if (!o->data || !o->config || !o->out || !o->events)
		sa_usage_die("--data, --config, -o and --events are required");
}

/* The internal entry of the zygote, exec'd by the driver inside the new namespaces (the CPU
 * quota is the driver's cgroup, not the zygote's business). */
static int zygote_entry(int argc, char **argv)
{
	struct sbx_limits lim;
	int v[7];

	if (argc != 9)
		return SA_EXIT_USAGE;
	for (int i = 0; i < 7; i++)
		v[i] = atoi(argv[i + 2]);
	/* First over the read roots' resident copy, then again from it (sbi_zygote.c). */
	if (strcmp(argv[1], "--zygote") == 0)
		return sbi_zygote_resident(v[0], argv);
	lim = (struct sbx_limits){ v[2], v[3], v[4], v[5], v[6], 0 };
	return sbi_zygote_main(v[0], v[1], &lim);
}

/* The zygote whose cgroup run.json reports; NULL until it has started. */
static const struct sbx_zygote *started;

static void write_outputs(const struct opts *o, const struct sbx_result *r,
			  const struct sbx_limits *lim, const char *reason)
{
	cJSON *run = sbx_run_json(r, lim, started ? sbx_zygote_cgroup(started) : NULL, reason);
	char err[1024];

	if (sbx_events_file(o->events, r, err, sizeof err) < 0 ||
	    sa_json_write(o->out, run, err, sizeof err) < 0) {
		cJSON_Delete(run);
		sa_die("%s", err);
	}
	cJSON_Delete(run);
}

static long ms_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Runs the full run o->repeat times (o->jobs at once) and keeps the last result in *r. */
static int run_repeated(struct sbx_zygote *z, const struct da_ohlcv *bars, const struct opts *o,
			struct sbx_result *r, char *err, size_t errlen)
{
	size_t k = (size_t)o->repeat, *n = NULL;
	struct sbx_result *all = NULL;
	long t0 = ms_now();
	int rc = -1;

	if (k == 1) {
		const struct sbx_job job = { .s = bars, .n_visible = bars->n };
		const struct sbx_batch_opts bo = {
			.jobs = 1, .deadline_ms = sbx_budget_deadline(o->audit_s, 1.0, o->started),
		};
		return sbx_run_batch(z, &job, 1, &bo, r, err, errlen);
	}
	n = calloc(k, sizeof *n);
	all = calloc(k, sizeof *all);
	if (!n || !all) {
		sa_fmt(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < k; i++)
		n[i] = bars->n;
	if (sbx_run_many(z, bars, n, k, o->jobs, all, NULL, NULL, err, errlen) < 0)
		goto out;
	fprintf(stderr, "sandbox: %zu runs of %zu bars, %d at once: %.2f ms per run\n", k, bars->n,
		o->jobs, (double)(ms_now() - t0) / (double)k);
	*r = all[k - 1];
	memset(&all[k - 1], 0, sizeof all[k - 1]);
	rc = 0;
out:
	for (size_t i = 0; all && i < k; i++)
		sbx_result_release(&all[i]);
	free(all);
	free(n);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = { .jobs = 1, .repeat = 1 };
	struct sbx_limits lim;
	struct da_ohlcv bars = { 0 };
	struct sbx_result r = { 0 };
	struct sbx_zygote *z = NULL;
	cJSON *config = NULL;
	char err[1024], why[1200];

	sa_set_prog("sandbox");
	if (argc >= 2 && (strcmp(argv[1], "--zygote") == 0 || strcmp(argv[1], SBI_ZYGOTE_RESIDENT) == 0))
		return zygote_entry(argc, argv);
	parse(argc, argv, &o);
	sbx_limits_default(&lim);
	/* The record exists before anything is loaded: a kill at any point leaves it. */
	write_outputs(&o, NULL, &lim, "the run did not finish");
	if (!(config = sa_json_read(o.config, SA_JSON_CAP, err, sizeof err))) {
		write_outputs(&o, NULL, &lim, err);
		goto out;
	}
	if (sbx_limits_from_config(config, &lim, err, sizeof err) < 0 ||
	    sa_config_num(config, SA_K_AUDIT_S, &o.audit_s, err, sizeof err) < 0) {
		write_outputs(&o, NULL, &lim, err);
		goto out;
	}
	if (!o.strategy) {
		write_outputs(&o, NULL, &lim, "no strategy was uploaded");
		goto out;
	}
	/* An upload too large to run is a finding the verdict reports, not the tool's failure. */
	if (sbx_upload_too_big(o.strategy, why, sizeof why)) {
		write_outputs(&o, NULL, &lim, why);
		goto out;
	}
	write_outputs(&o, NULL, &lim, "the run did not finish");
	/* The zygote starts before the data is loaded (and from a fresh exec image anyway). */
	if (!(z = sbx_zygote_start(o.strategy, &lim, err, sizeof err))) {
		write_outputs(&o, NULL, &lim, sa_fmt(why, sizeof why, "sandbox did not start: %s", err));
		sa_die("%s", err);
	}
	started = z;
	if (da_ohlcv_load_config(o.data, config, &bars, err, sizeof err) < 0) {
		write_outputs(&o, NULL, &lim, sa_fmt(why, sizeof why, "data '%s': %s", o.data, err));
		goto out;
	}
	if (run_repeated(z, &bars, &o, &r, err, sizeof err) < 0) {
		write_outputs(&o, NULL, &lim, sa_fmt(why, sizeof why, "sandbox failed: %s", err));
		started = NULL;
		sbx_zygote_stop(z);
		sa_die("%s", err);
	}
	write_outputs(&o, &r, &lim, NULL);
	/* Measured time goes to the terminal only: run.json must not change from run to run. */
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "sandbox: %s after %ld ms\n", sbx_status_name(r.status), r.wall_ms);
out:
	sbx_zygote_stop(z);
	sbx_result_release(&r);
	da_ohlcv_release(&bars);
	cJSON_Delete(config);
	return SA_EXIT_OK;
}
