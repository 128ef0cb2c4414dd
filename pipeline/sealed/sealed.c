/* sealed.c - runs the strategy once on sealed bars (SEALED: bars the uploader has never seen)
 * and scores it there with the audit's costs; writes only aggregates, never a bar, a time or a
 * trade of the sealed set, so the bundle cannot teach them to the next upload. */
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
#include "ohlcv.h"
#include "ohlcv_json.h"
#include "sbx.h"
#include "sbx_report.h"
#include "sbx_stage.h"
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
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: sealed --strategy FILE [--inspect inspect.json] --run run.json --data SEALED.csv\n"
		"              --config config.json\n"
		"              [--started EPOCH] -o sealed.json\n"
		"\n"
		"Runs signals(df) once in the sandbox on the sealed bars (a full run: every bar seen)\n"
		"and replays them with the audit's costs. sealed.json holds aggregates only (bars,\n"
		"trades, net and gross return, mean net return per trade, Sharpe ratio and PSR per\n"
		"trade, drawdown, costs) and the gate: the net edge holds when the mean net return\n"
		"per trade and the total net return are both above 0 (and the account was not ruined).\n"
		"A run that fails or is refused there fails the gate; its refusals are recorded. When\n"
		"the full run on the audit's data did not finish uncontained, nothing is run.\n"
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
	/* a refused upload is not run again, on any data */
	rc = da_run_signals(j->run, (size_t)fmax(0, sa_json_num(j->run, "n_bars", 0)),
			    DA_RUN_UNCONTAINED, &full, why, len);
	free(full);
	if (rc < 0)
		return -1;
	if (da_ohlcv_load_config(o->data, j->cfg, &j->bars, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "sealed data unusable: %s", err);
	rp_costs_floor(&j->costs, &j->bars, NULL);
	return 0;
}

/* The one run, within the stage's share of the budget. */
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
		return sbx_stage_fail(why, len, "the sandbox failed: %s", err);
	j->ran = true;
	if (sbx_rules_merge(&j->rules, &j->n_rules, &j->res) < 0)
		return sbx_stage_fail(why, len, "out of memory counting refusals");
	return 0;
}

/* The tree of a completed check: the run's status, its aggregates and the gate. */
static cJSON *score(struct job *j, char *why, size_t len)
{
	const struct sbx_result *r = &j->res;
	struct sl_score sc;
	cJSON *res = sa_json_stage("sealed", SL_SCHEMA);
	bool valid = r->status == SBX_OK && r->signals && r->n == j->bars.n;

	cJSON_AddBoolToObject(res, "ok", true);
	cJSON_AddBoolToObject(res, "complete", r->status != SBX_NOT_RUN);
	cJSON_AddStringToObject(res, "status", sbx_status_name(r->status));
	if (valid && sl_score(&j->bars, r->signals, &j->costs, &sc) < 0) {
		cJSON_Delete(res);
		sbx_stage_fail(why, len, "out of memory");
		return NULL;
	}
	if (valid) {
		sl_score_json(&sc, res);
	} else {
		cJSON_AddNumberToObject(res, "bars", (double)j->bars.n);
		cJSON_AddBoolToObject(res, "edge_holds", false);
	}
	/* the error line is the run's own words about the sealed bars: not carried */
	cJSON_AddStringToObject(res, "reason", valid ? (sc.edge_holds ?
		"On the sealed bars the mean net return per trade and the total net return are both above 0: the edge holds there." :
		"On the sealed bars the mean net return per trade or the total net return is not above 0: the edge does not hold there.") :
		"The strategy gave no valid signals on the sealed bars: the edge could not be shown there.");
	cJSON_AddNumberToObject(res, "blocked_actions", (double)r->n_refusals);
	cJSON_AddItemToObject(res, "refusals", sbx_rules_json(j->rules, j->n_rules));
	return res;
}

static cJSON *check(const struct sbx_stage_args *o, char *err, size_t errlen)
{
	static struct job j;
	char why[768] = "";
	cJSON *res = NULL;

	(void)err, (void)errlen;
	memset(&j, 0, sizeof j);
	if (prepare(o, &j, why, sizeof why) == 0 && run_once(o, &j, why, sizeof why) == 0)
		res = score(&j, why, sizeof why);
	if (!res) {
		res = sa_json_stage("sealed", SL_SCHEMA);
		sa_json_fail(res, why);
	}
	if (j.ran)
		sbx_result_release(&j.res);
	sbx_zygote_stop(j.zyg);
	free(j.rules);
	da_ohlcv_release(&j.bars);
	cJSON_Delete(j.run);
	cJSON_Delete(j.cfg);
	return res;
}

int main(int argc, char **argv)
{
	static const struct sbx_stage st = { "sealed", SBX_STAGE_RUN | SBX_STAGE_EXITS, usage, check };

	return sbx_stage_main(&st, argc, argv);
}
