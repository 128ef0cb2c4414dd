/* sealed.c - runs the strategy once on sealed bars (SEALED: bars the uploader has never seen)
 * and scores it there with the audit's costs; tells back one of a few outcomes only (sealed_core.h),
 * within the set's budget of audits (sealed_budget.h), so the bundle cannot teach the sealed bars
 * to the next upload beyond a stated number of bits. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "costs.h"
#include "exits.h"
#include "fileio.h"
#include "jsonio.h"
#include "stagefile.h"
#include "ohlcv.h"
#include "ohlcv_json.h"
#include "sbx.h"
#include "sbx_report.h"
#include "sbx_stage.h"
#include "sealed_budget.h"
#include "sealed_core.h"
#include "signals.h"

/* The share of the audit's time budget (AUDIT_S) this stage may spend: one run. */
#define SL_BUDGET_SHARE 0.1

struct job {
	cJSON *cfg, *run;
	struct da_ohlcv bars;
	struct rp_costs costs;
	struct rp_exits exits;
	struct sbx_limits lim;
	struct sbx_zygote *zyg;
	struct sbx_result res;
	bool ran;
	struct sbx_rule_count *rules;
	size_t n_rules;
	double open_mean;          /* the open data's mean net return per trade */
	bool open_holds;           /* its net edge holds there */
	struct sl_audit audit;
	struct sl_budget budget;
	sqlite3 *db;
	enum sl_outcome outcome;
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: sealed --strategy FILE [--inspect inspect.json] --run run.json --replay replay.json\n"
		"              --data SEALED.csv --config config.json [--started EPOCH] -o sealed.json\n"
		"\n"
		"Runs signals(df) once in the sandbox on the sealed bars (a full run: every bar seen)\n"
		"and replays them with the audit's costs. Nothing of that score is written: sealed.json\n"
		"holds one outcome (a reusable holdout, Thresholdout: the sealed edge, in units of the\n"
		"open one from replay.json, is told only where it differs from the open edge beyond a\n"
		"noisy threshold, and then only as a bucket): fails, weaker, as_open or stronger when\n"
		"scored; refused, cut_short or failed when the run was not; spent when the set has\n"
		"answered its budget (SEALED_BUDGET audits, counted by the set's sha256 in the ledger's\n"
		"history, LEDGER, which also holds the set's secret key the noise comes from); not_run\n"
		"when the full run on the audit's data did not finish uncontained. Refusals there are\n"
		"counted per rule in the ledger's history, for the operator, never in sealed.json.\n"
		"\n"
		"exit status: 0 sealed.json written (even when it says \"ok\": false),\n"
		"             2 bad command line, 3 the tool itself could not work\n");
}

/* The strategy's declared exits (--inspect), attached to the cost model: the sealed bars are
 * filled as the audit's own are. Exits declared wrong stop the stage, as they stop the replay. */
static int read_exits(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[480];

	if (!o->inspect)
		return 0;
	if (rp_exits_read_inspect(o->inspect, &j->exits, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "%s; the sealed bars were not scored", err);
	j->costs.exits = &j->exits;
	return 0;
}

/* The open data's edge from replay.json, the holdout's open answer. */
static int read_open(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512];
	bool ok;
	cJSON *rp = sa_json_read_stage(o->replay, &ok, err, sizeof err);

	if (!rp || !ok) {
		cJSON_Delete(rp);
		return sbx_stage_fail(why, len, "replay.json unusable (%s); the sealed bars were not run",
				      rp ? "not ok" : err);
	}
	j->open_mean = sa_json_num(rp, "mean_net_return", NAN);
	j->open_holds = sa_json_num(rp, "trades", 0) > 0 && !sa_json_bool(rp, "ruined", true) &&
			j->open_mean > 0 && sa_json_num(rp, "net_return", NAN) > 0;
	cJSON_Delete(rp);
	return 0;
}

/* Whether knob k is read by this stage and can change its answer (the budget and the history's
 * place cannot). */
static bool answers_with(enum sa_knob_id k)
{
	char pad[512];

	snprintf(pad, sizeof pad, " %s ", sa_knobs[k].readers);
	return sa_knobs[k].path && strstr(pad, " sealed ") && k != SA_K_SEALED_BUDGET && k != SA_K_LEDGER;
}

/* The value at a knob's "key" or "group.key" in config.json (borrowed), or NULL. */
static const cJSON *at(const cJSON *cfg, const char *path)
{
	char group[128];
	const char *dot = strchr(path, '.');

	if (!dot)
		return cJSON_GetObjectItemCaseSensitive(cfg, path);
	snprintf(group, sizeof group, "%.*s", (int)(dot - path), path);
	return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cfg, group), dot + 1);
}

/* The sha256 of what the answer rests on besides the upload: the knobs this stage reads (as
 * config.json holds them) and the open edge. A knob no run here reads (a gate, the trials, the
 * budget) leaves each audit its place and its noise. */
static int answer_hash(const struct job *j, char hex[65], char *err, size_t len)
{
	char text[8192], *v;
	size_t used = (size_t)snprintf(text, sizeof text, "open %.17g %d\n", j->open_mean, j->open_holds);

	for (int k = 0; k < SA_K_COUNT && used < sizeof text; k++) {
		if (!answers_with((enum sa_knob_id)k))
			continue;
		v = cJSON_PrintUnformatted(at(j->cfg, sa_knobs[k].path));
		used += (size_t)snprintf(text + used, sizeof text - used, "%s=%s\n", sa_knobs[k].path,
					 v ? v : "null");
		cJSON_free(v);
	}
	if (used >= sizeof text)
		return snprintf(err, len, "the knobs do not fit"), -1;
	return sa_sha256_buf(text, used, hex, err, len);
}

/* The audit's identity: every byte that can change its answer (the upload, the knobs this stage
 * reads, the open edge), so no two different audits share a place in the budget or their noise,
 * and the same audit, made again, keeps both. */
static int identify(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char h[2][65], err[512] = "", both[2 * 65];
	cJSON *in = o->inspect ? sa_json_read(o->inspect, SA_JSON_CAP, err, sizeof err) : NULL;
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(in, "strategy"), "normalised");
	const char *structure = sa_json_str(n, "structure_sha256", "");

	if (sa_sha256_file(o->strategy, h[0], err, sizeof err) < 0 ||
	    answer_hash(j, h[1], err, sizeof err) < 0 ||
	    sa_sha256_file(o->data, j->audit.set, err, sizeof err) < 0) {
		cJSON_Delete(in);
		return sbx_stage_fail(why, len, "cannot hash the audit's files: %s", err);
	}
	/* a lineage is the code with its constants abstracted; without it, the upload itself */
	snprintf(j->audit.lineage, sizeof j->audit.lineage, "%s", strlen(structure) == 64 ? structure : h[0]);
	cJSON_Delete(in);
	snprintf(both, sizeof both, "%s%s", h[0], h[1]);
	if (sa_sha256_buf(both, strlen(both), j->audit.id, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "cannot hash the audit: %s", err);
	return 0;
}

/* The set's place in the ledger's history: its key and this audit's share of its budget. */
static int take_budget(struct job *j, char *why, size_t len)
{
	char err[768];
	const char *ledger = "";
	long long budget;

	if (sa_config_str(j->cfg, SA_K_LEDGER, &ledger, why, len) < 0 ||
	    sa_config_int(j->cfg, SA_K_SEALED_BUDGET, &budget, why, len) < 0)
		return -1;
	if (!*ledger)
		return sbx_stage_fail(why, len, "SEALED needs LEDGER: the sealed set's budget and the key "
				      "of its noise are kept in the ledger's history");
	if (sl_budget_open(ledger, &j->db, err, sizeof err) < 0 ||
	    sl_budget_take(j->db, &j->audit, (long)budget, &j->budget, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "%s", err);
	return 0;
}

static int prepare(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512];
	int8_t *full = NULL;
	bool ok;
	int rc;

	if (!o->strategy)
		return sbx_stage_fail(why, len, "no strategy was uploaded, so there is nothing to run");
	j->cfg = sa_json_read(o->config, SA_JSON_CAP, err, sizeof err);
	if (!j->cfg)
		return sbx_stage_fail(why, len, "config.json unusable: %s", err);
	if (rp_read_costs(j->cfg, &j->costs, why, len) < 0 || read_exits(o, j, why, len) < 0 ||
	    sbx_limits_from_config(j->cfg, &j->lim, why, len) < 0)
		return -1;
	j->run = sa_json_read_stage(o->run, &ok, err, sizeof err);
	if (!j->run)
		return sbx_stage_fail(why, len, "run.json unusable (%s); the sealed bars were not run", err);
	if (da_ohlcv_load_config(o->data, j->cfg, &j->bars, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "sealed data unusable: %s", err);
	rp_costs_floor(&j->costs, &j->bars, NULL);
	/* a refused upload is not run again, on any data */
	rc = da_run_signals(j->run, (size_t)fmax(0, sa_json_num(j->run, "n_bars", 0)),
			    DA_RUN_UNCONTAINED, &full, why, len);
	free(full);
	if (rc < 0) {
		j->outcome = SL_NOT_RUN;
		return 1;
	}
	if (read_open(o, j, why, len) < 0 || identify(o, j, why, len) < 0 || take_budget(j, why, len) < 0)
		return -1;
	if (j->budget.spent) {
		j->outcome = SL_SPENT;
		return 1;
	}
	return 0;
}

/* The one run, within the stage's share of the budget. What the sandbox says of a failure is
 * not carried: it may hold the run's own words. */
static int run_once(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512];
	long long audit_s;
	struct sbx_job job = { .s = &j->bars, .n_visible = j->bars.n };
	struct sbx_batch_opts bo = { .jobs = 1 };

	if (sa_config_int(j->cfg, SA_K_AUDIT_S, &audit_s, why, len) < 0)
		return -1;
	bo.deadline_ms = sbx_budget_deadline((double)audit_s, SL_BUDGET_SHARE, o->started);
	j->zyg = sbx_zygote_start(o->strategy, &j->lim, err, sizeof err);
	if (!j->zyg)
		return sbx_stage_fail(why, len, "the sandbox could not start: %s", err);
	if (sbx_run_batch(j->zyg, &job, 1, &bo, &j->res, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "the sandbox failed on the sealed bars");
	j->ran = true;
	if (sbx_rules_merge(&j->rules, &j->n_rules, &j->res) < 0)
		return sbx_stage_fail(why, len, "out of memory counting refusals");
	return 0;
}

/* The run's outcome: a refusal first, then a run stopped at a limit of time, then no valid
 * signals, else the holdout's answer on the score. */
static int judge(struct job *j, char *why, size_t len)
{
	const struct sbx_result *r = &j->res;
	struct sl_score sc;
	struct sl_draws d;

	if (r->n_refusals > 0)
		j->outcome = SL_REFUSED;
	else if (r->status == SBX_KILLED_WALL_CLOCK || r->status == SBX_KILLED_CPU)
		j->outcome = SL_CUT_SHORT;
	else if (r->status != SBX_OK || !r->signals || r->n != j->bars.n)
		j->outcome = SL_FAILED;
	else if (sl_score(&j->bars, r->signals, &j->costs, &sc) < 0)
		return sbx_stage_fail(why, len, "out of memory");
	else if (sl_budget_draws(&j->budget, &j->audit, &d) < 0)
		return sbx_stage_fail(why, len, "the holdout's noise could not be drawn");
	else
		j->outcome = sl_release(sl_query(&sc, j->open_mean), j->open_holds, &d);
	return 0;
}

static const char *reason(enum sl_outcome o)
{
	switch (o) {
	case SL_SPENT: return "The sealed set has answered its budget of audits: it is spent, and fresh sealed bars are needed.";
	case SL_NOT_RUN: return "The strategy did not finish uncontained on the audit's data, so it was not run on the sealed bars.";
	case SL_FAILED: return "The strategy gave no valid signals on the sealed bars: the edge could not be shown there.";
	case SL_CUT_SHORT: return "The run on the sealed bars was stopped at a time limit: the edge could not be shown there.";
	case SL_REFUSED: return "The sandbox refused an action of the run on the sealed bars.";
	case SL_FAILS: return "On the sealed bars the edge does not hold.";
	case SL_WEAKER: return "On the sealed bars the edge holds, well under the open data's.";
	case SL_AS_OPEN: return "On the sealed bars the edge holds, as on the open data.";
	default: return "On the sealed bars the edge holds, well above the open data's.";
	}
}

/* The tree: the outcome and what follows from it, the bound and the budget. */
static cJSON *tell(const struct job *j)
{
	cJSON *res = sa_sf_new(SA_SF_SEALED), *b;

	cJSON_AddBoolToObject(res, "ok", true);
	cJSON_AddStringToObject(res, "outcome", sl_outcome_name(j->outcome));
	cJSON_AddBoolToObject(res, "edge_holds", sl_outcome_holds(j->outcome));
	cJSON_AddBoolToObject(res, "complete", j->outcome != SL_CUT_SHORT);
	cJSON_AddBoolToObject(res, "refused", j->outcome == SL_REFUSED);
	cJSON_AddNumberToObject(res, "bars", (double)j->bars.n);
	sa_json_add_num(res, "bound_bits", sl_bound_bits(), 4);
	b = cJSON_AddObjectToObject(res, "budget");
	if (j->budget.budget > 0) {
		cJSON_AddNumberToObject(b, "used", (double)j->budget.used);
		cJSON_AddNumberToObject(b, "of", (double)j->budget.budget);
		cJSON_AddNumberToObject(b, "lineage_used", (double)j->budget.lineage_used);
	}
	cJSON_AddBoolToObject(b, "spent", j->outcome == SL_SPENT);
	cJSON_AddStringToObject(res, "reason", reason(j->outcome));
	return res;
}

static cJSON *check(const struct sbx_stage_args *o, char *err, size_t errlen)
{
	static struct job j;
	char why[768] = "";
	cJSON *res = NULL;
	int rc;

	(void)err, (void)errlen;
	memset(&j, 0, sizeof j);
	rc = prepare(o, &j, why, sizeof why);
	if (rc == 0)
		rc = run_once(o, &j, why, sizeof why) < 0 || judge(&j, why, sizeof why) < 0 ? -1 : 0;
	if (rc == 0 && sl_budget_record(j.db, &j.audit, j.outcome, j.rules, j.n_rules, why, sizeof why) < 0)
		rc = -1;
	if (rc >= 0)
		res = tell(&j);
	else {
		res = sa_sf_new(SA_SF_SEALED);
		sa_json_fail(res, why);
	}
	if (j.ran)
		sbx_result_release(&j.res);
	sbx_zygote_stop(j.zyg);
	sqlite3_close(j.db);
	free(j.rules);
	da_ohlcv_release(&j.bars);
	cJSON_Delete(j.run);
	cJSON_Delete(j.cfg);
	return res;
}

int main(int argc, char **argv)
{
	static const struct sbx_stage st = { "sealed", SBX_STAGE_RUN | SBX_STAGE_EXITS | SBX_STAGE_REPLAY,
					     usage, check };

	return sbx_stage_main(&st, argc, argv);
}
