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

/* limits.key into *out when present: a whole number in [lo, hi], else -1 with why in err. */
static int pick(const cJSON *l, const char *key, int lo, int hi, int *out, char *err, size_t errlen)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(l, key);

	if (!it)
		return 0;
	if (!cJSON_IsNumber(it) || it->valuedouble != (double)(int)it->valuedouble ||
	    it->valuedouble < lo || it->valuedouble > hi) {
		sa_fmt(err, errlen, "config.json: limits.%s must be a whole number from %d to %d", key,
		       lo, hi);
		return -1;
	}
	*out = (int)it->valuedouble;
	return 0;
}

int sbx_limits_from_config(const cJSON *config, struct sbx_limits *lim, char *err, size_t errlen)
{
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(config, "limits");

	sbx_limits_default(lim);
	if (l && !cJSON_IsObject(l)) {
		sa_fmt(err, errlen, "config.json: \"limits\" is not an object");
		return -1;
	}
	if (pick(l, "wall_s", 1, 86400, &lim->wall_s, err, errlen) < 0 ||
	    pick(l, "cpu_s", 1, 86400, &lim->cpu_s, err, errlen) < 0 ||
	    pick(l, "mem_mb", 64, 1 << 20, &lim->mem_mb, err, errlen) < 0 ||
	    pick(l, "scratch_mb", 1, 1 << 16, &lim->scratch_mb, err, errlen) < 0 ||
	    pick(l, "nofile", 16, 1 << 16, &lim->nofile, err, errlen) < 0)
		return -1;
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
