/* sbx_report.c - the sandbox stage's two output files. */
#include "sbx_report.h"

#include <string.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"

void sbx_limits_default(struct sbx_limits *lim)
{
	*lim = (struct sbx_limits){ .wall_s = 20, .cpu_s = 20, .mem_mb = 1024, .scratch_mb = 16, .nofile = 64 };
}

static int pick(const cJSON *o, const char *key, int def, int lo, int hi)
{
	double v = sa_json_num(o, key, def);
	return v >= lo && v <= hi && v == (int)v ? (int)v : def;
}

int sbx_limits_from_config(const cJSON *config, struct sbx_limits *lim, char *err, size_t errlen)
{
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(config, "limits");

	sbx_limits_default(lim);
	if (!cJSON_IsObject(l)) {
		sa_fmt(err, errlen, "config.json has no \"limits\" object");
		return -1;
	}
	lim->wall_s = pick(l, "wall_s", lim->wall_s, 1, 86400);
	lim->cpu_s = pick(l, "cpu_s", lim->cpu_s, 1, 86400);
	lim->mem_mb = pick(l, "mem_mb", lim->mem_mb, 64, 1 << 20);
	lim->scratch_mb = pick(l, "scratch_mb", lim->scratch_mb, 1, 1 << 16);
	lim->nofile = pick(l, "nofile", lim->nofile, 16, 1 << 16);
	return 0;
}

static void add_limits(cJSON *o, const struct sbx_limits *lim)
{
	cJSON *l = cJSON_AddObjectToObject(o, "limits");
	cJSON_AddNumberToObject(l, "wall_s", lim->wall_s);
	cJSON_AddNumberToObject(l, "cpu_s", lim->cpu_s);
	cJSON_AddNumberToObject(l, "mem_mb", lim->mem_mb);
	cJSON_AddNumberToObject(l, "scratch_mb", lim->scratch_mb);
	cJSON_AddNumberToObject(l, "nofile", lim->nofile);
}

cJSON *sbx_run_json(const struct sbx_result *r, const struct sbx_limits *lim, const char *reason)
{
	cJSON *o = sa_json_stage("sandbox", 1);
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
	cJSON_AddNumberToObject(o, "blocked_actions", r ? (double)r->n_events : 0);
	add_limits(o, lim);
	if (st != SBX_OK && why)
		cJSON_AddStringToObject(o, "error", why);
	else
		cJSON_AddNullToObject(o, "error");
	cJSON_AddStringToObject(o, "stdout", r && r->out_log ? r->out_log : "");
	cJSON_AddStringToObject(o, "stderr", r && r->err_log ? r->err_log : "");
	return o;
}

int sbx_events_file(const char *path, const struct sbx_result *r)
{
	struct sa_atomic a;
	long seq = 0;

	if (sa_atomic_open(&a, path) < 0)
		return -1;
	if (r && sbx_events_write(a.fp, r, &seq) < 0) {
		sa_atomic_abort(&a);
		return sa_error("cannot write '%s'", path);
	}
	return sa_atomic_commit(&a);
}
