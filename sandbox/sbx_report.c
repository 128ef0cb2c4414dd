/* sbx_report.c - the sandbox stage's two output files. */
#include "sbx_report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "sbx_cgroup_int.h"
#include "fileio.h"
#include "jsonio.h"
#include "stagefile.h"
#include "msg.h"

/* One whole-number limit through the knob table (its range is the table's). */
static int limit(const cJSON *config, enum sa_knob_id k, int *out, char *err, size_t errlen)
{
	long long v;

	if (sa_config_int(config, k, &v, err, errlen) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

int sbx_limits_from_config(const cJSON *config, struct sbx_limits *lim, char *err, size_t errlen)
{
	if (limit(config, SA_K_WALL_S, &lim->wall_s, err, errlen) < 0 ||
	    limit(config, SA_K_CPU_S, &lim->cpu_s, err, errlen) < 0 ||
	    limit(config, SA_K_MEM_MB, &lim->mem_mb, err, errlen) < 0 ||
	    limit(config, SA_K_SCRATCH_MB, &lim->scratch_mb, err, errlen) < 0 ||
	    limit(config, SA_K_NOFILE, &lim->nofile, err, errlen) < 0 ||
	    sa_config_num(config, SA_K_CPUS, &lim->cpus, err, errlen) < 0)
		return -1;
	return 0;
}

void sbx_limits_default(struct sbx_limits *lim)
{
	char err[128];

	/* The table's defaults parse by construction; NULL reads every default. */
	sbx_limits_from_config(NULL, lim, err, sizeof err);
}

/* What the cgroup applied, or null with the reason. No measured figure: the same inputs give the
 * same run.json: the cgroup's totals are the warm zygote's use plus these per run, times the runs
 * at once, which depend on the machine, so only the per-run figures are written. */
static void add_cgroup(cJSON *l, const struct sbx_limits *lim, const struct sbx_cgroup *cg)
{
	cJSON *c;

	if (!cg || cg->version == 0) {
		cJSON_AddNullToObject(l, "cgroup");
		cJSON_AddStringToObject(l, "cgroup_reason", cg ? cg->why : "the sandbox did not start");
		return;
	}
	c = cJSON_AddObjectToObject(l, "cgroup");
	cJSON_AddNumberToObject(c, "version", cg->version);
	cJSON_AddNumberToObject(c, "mem_mb_per_run", lim->mem_mb);
	cJSON_AddNumberToObject(c, "pids_per_run", SBX_CG_PIDS_PER_RUN);
	cJSON_AddNumberToObject(c, "cpus_per_run", lim->cpus);
	cJSON_AddNumberToObject(c, "cpus_zygote", SBX_CG_ZYGOTE_CPUS);
	/* scheduled as jobs + 1 processes would be outside it: one process's weight a run */
	cJSON_AddNumberToObject(c, "cpu_weight_per_run", cg->version == 2 ? 100 : 1024);
}

static void add_limits(cJSON *o, const struct sbx_limits *lim, const struct sbx_cgroup *cg)
{
	cJSON *l = cJSON_AddObjectToObject(o, "limits");
	cJSON_AddNumberToObject(l, "wall_s", lim->wall_s);
	cJSON_AddNumberToObject(l, "cpu_s", lim->cpu_s);
	cJSON_AddNumberToObject(l, "mem_mb", lim->mem_mb);
	cJSON_AddNumberToObject(l, "scratch_mb", lim->scratch_mb);
	cJSON_AddNumberToObject(l, "nofile", lim->nofile);
	cJSON_AddNumberToObject(l, "cpus", lim->cpus);
	add_cgroup(l, lim, cg);
}

/* One side's tags as [[bar, name's place from 0], ...] for the bars that carry one. */
static cJSON *tag_bars(const uint8_t *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; a && i < n; i++)
		if (v[i]) {
			const double pair[2] = { (double)i, (double)(v[i] - 1) };
			cJSON_AddItemToArray(a, cJSON_CreateDoubleArray(pair, 2));
		}
	return a;
}

/* run.json "tags": a framework run's tag table (sbx_proto.h, checked by the driver), or null. */
static void add_tags(cJSON *o, const struct sbx_result *r)
{
	cJSON *t;

	if (!r || !r->signals || !r->n_tags || !r->tag_enter || !r->tag_exit) {
		cJSON_AddNullToObject(o, "tags");
		return;
	}
	t = cJSON_AddObjectToObject(o, "tags");
	cJSON *names = cJSON_AddArrayToObject(t, "names");
	for (size_t i = 0; i < r->n_tags; i++)
		cJSON_AddItemToArray(names, cJSON_CreateString(r->tag_names[i]));
	cJSON_AddItemToObject(t, "enter", tag_bars(r->tag_enter, r->n));
	cJSON_AddItemToObject(t, "exit", tag_bars(r->tag_exit, r->n));
}

cJSON *sbx_run_json(const struct sbx_result *r, const struct sbx_limits *lim,
		    const struct sbx_cgroup *cg, const char *reason)
{
	cJSON *o = sa_sf_new(SA_SF_RUN);
	cJSON *sig = cJSON_CreateArray();
	enum sbx_status st = r ? r->status : SBX_NOT_RUN;
	const char *why = reason ? reason : r && r->error[0] ? r->error : NULL;

	cJSON_AddBoolToObject(o, "ok", st == SBX_OK);
	if (st != SBX_OK)
		cJSON_AddStringToObject(o, "reason", why ? why : sbx_status_name(st));
	cJSON_AddStringToObject(o, "status", sbx_status_name(st));
	cJSON_AddNumberToObject(o, "n_bars", r ? (double)r->n : 0);
	if (r && r->signals)
		for (size_t i = 0; i < r->n; i++)
			cJSON_AddItemToArray(sig, cJSON_CreateNumber(r->signals[i]));
	cJSON_AddItemToObject(o, "signals", sig);
	cJSON_AddBoolToObject(o, "signal_entries", r && r->signals && r->entries);
	add_tags(o, r);
	cJSON_AddNumberToObject(o, "nan_as_flat", r && r->signals ? (double)r->nan_as_flat : 0);
	if (r && r->signals && r->declared_search > 0)
		cJSON_AddNumberToObject(o, "declared_search", (double)r->declared_search);
	else
		cJSON_AddNullToObject(o, "declared_search");
	cJSON_AddNumberToObject(o, "blocked_actions", r ? (double)r->n_refusals : 0);
	cJSON_AddItemToObject(o, "refusals", sbx_rules_json(r ? r->rules : NULL, r ? r->n_rules : 0));
	add_limits(o, lim, cg);
	if (st != SBX_OK && why)
		cJSON_AddStringToObject(o, "error", why);
	else
		cJSON_AddNullToObject(o, "error");
	cJSON_AddStringToObject(o, "stdout", r && r->out_log ? r->out_log : "");
	cJSON_AddStringToObject(o, "stderr", r && r->err_log ? r->err_log : "");
	return o;
}

int sbx_events_file(const char *path, const struct sbx_result *r, char *err, size_t errlen)
{
	struct sa_atomic a;
	long seq = 0;

	if (sa_atomic_open(&a, path, err, errlen) < 0)
		return -1;
	if (r && sbx_events_write(a.fp, r, &seq) < 0) {
		sa_fmt(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		sa_atomic_abort(&a);
		return -1;
	}
	return sa_atomic_commit(&a, err, errlen);
}

int sbx_parse_jobs(const char *text, int *jobs)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (!*text || *end || errno || v < 1 || v > SBX_MAX_JOBS)
		return -1;
	*jobs = (int)v;
	return 0;
}
