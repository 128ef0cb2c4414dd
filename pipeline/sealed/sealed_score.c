/* sealed_score.c - scores the run sealed kept (its key in sealed_run.json, its signals in the
 * ledger's history, never in a bundle) on the host with the audit's costs, and tells back one of
 * a few outcomes only (sealed_core.h), within the set's budget of audits (sealed_budget.h), so the
 * bundle cannot teach the sealed bars to the next upload beyond a stated number of bits. It runs
 * nothing of the upload: a cost changed re-scores without a sandbox, and takes a place of its own
 * in the set's budget (a new answer about the sealed bars). */
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
#include "sbx_stage.h"
#include "sealed_budget.h"
#include "sealed_core.h"

struct job {
	cJSON *cfg;
	char run[65];              /* sealed_run.json's key of the run, "" when it did not run */
	struct da_ohlcv bars;
	struct rp_costs costs;
	struct rp_exits exits;
	int8_t *sig;               /* the kept run's signals */
	size_t n_sig;
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
		"usage: sealed_score --strategy FILE [--inspect inspect.json] --runs sealed_run.json\n"
		"                    --replay replay.json --data SEALED.csv --config config.json\n"
		"                    -o sealed.json\n"
		"\n"
		"Scores the run sealed made on the sealed bars (sealed_run.json names it; its signals are\n"
		"kept in the ledger's history, LEDGER, never in a bundle), on the host, running nothing\n"
		"of the upload: its signals replayed with config.json's costs and the declared exits.\n"
		"Nothing of that score is written: sealed.json holds one outcome (a reusable holdout,\n"
		"Thresholdout: the sealed edge, in units of the open one from replay.json, is told only\n"
		"where it differs from the open edge beyond a noisy threshold, and then only as a\n"
		"bucket): fails, weaker, as_open or stronger when scored; refused, cut_short or failed\n"
		"when the run was not; spent when the set has answered its budget (SEALED_BUDGET audits,\n"
		"counted by the set's sha256 in the ledger's history, which also holds the set's secret\n"
		"key the noise comes from); not_run when the full run on the audit's data did not finish\n"
		"uncontained. An audit is the upload, the knobs both sealed stages read (a cost among\n"
		"them) and the open edge: the same audit again keeps its place and its answer, another\n"
		"cost is another audit and takes a place of its own.\n"
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
	struct sa_sf rp;
	double trades = 0, net = NAN;
	bool ruined = true;

	sa_sf_open_path(&rp, o->replay, SA_SF_REPLAY);
	j->open_mean = NAN;
	sa_sf_num(&rp, NULL, SA_FD_RP_MEAN_NET, &j->open_mean);
	sa_sf_num(&rp, NULL, SA_FD_RP_TRADES, &trades);
	sa_sf_bool(&rp, NULL, SA_FD_RP_RUINED, &ruined);
	sa_sf_num(&rp, NULL, SA_FD_RP_NET, &net);
	if (!rp.ok || rp.broken[0]) {
		sbx_stage_fail(why, len, "replay.json unusable (%s); the sealed bars were not scored",
			       rp.broken[0] ? rp.broken : sa_sf_present(&rp) ? "not ok" : rp.status);
		sa_sf_close(&rp);
		return -1;
	}
	j->open_holds = trades > 0 && !ruined && j->open_mean > 0 && net > 0;
	sa_sf_close(&rp);
	return 0;
}

/* The audit's identity: every byte that can change its answer (the upload, the knobs the run
 * and the scoring read, the open edge), so no two different audits share a place in the budget
 * or their noise, and the same audit, made again, keeps both. */
static int identify(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char h[2][65], err[512] = "", both[2 * 65], head[64], structure[65] = "";
	struct sa_sf in;

	if (o->inspect)
		sa_sf_open_path(&in, o->inspect, SA_SF_INSPECT);
	else
		sa_sf_view(&in, NULL, SA_SF_INSPECT);
	snprintf(structure, sizeof structure, "%s", sa_sf_str_or(&in, NULL, SA_FD_IN_NORM_STRUCTURE, ""));
	sa_sf_close(&in);
	if (in.broken[0])
		return sbx_stage_fail(why, len, "%s", in.broken);
	snprintf(head, sizeof head, "open %.17g %d", j->open_mean, j->open_holds);
	if (sa_sha256_file(o->strategy, h[0], err, sizeof err) < 0 ||
	    sl_knobs_hash(j->cfg, "sealed sealed_score", head, h[1], err, sizeof err) < 0 ||
	    sa_sha256_file(o->data, j->audit.set, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "cannot hash the audit's files: %s", err);
	/* a lineage is the code with its constants abstracted; without it, the upload itself */
	snprintf(j->audit.lineage, sizeof j->audit.lineage, "%s", strlen(structure) == 64 ? structure : h[0]);
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

/* sealed_run.json: the run sealed made, which must be this upload's with these knobs. Returns 0
 * when it ran, 1 when the upload was not run on the sealed bars, or -1 with why. */
static int read_index(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512], key[65];
	struct sa_sf idx;
	bool ran = false, present;

	sa_sf_open_path(&idx, o->runs, SA_SF_SEALED_RUN);
	present = sa_sf_present(&idx);
	sa_sf_bool(&idx, NULL, SA_FD_SLR_RAN, &ran);
	snprintf(j->run, sizeof j->run, "%s", sa_sf_str_or(&idx, NULL, SA_FD_SLR_RUN, ""));
	sa_sf_close(&idx);
	if (!present || idx.broken[0])
		return sbx_stage_fail(why, len, "sealed_run.json unusable: %s",
				      idx.broken[0] ? idx.broken : idx.status);
	if (!idx.ok)
		return sbx_stage_fail(why, len, "%s", idx.status);
	if (!ran)
		return 1;
	if (sl_run_key(o->strategy, j->cfg, key, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "cannot hash the upload: %s", err);
	if (strcmp(key, j->run))
		return sbx_stage_fail(why, len, "sealed_run.json is another upload's or other knobs' run; "
				      "run sealed again");
	return 0;
}

static int prepare(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512];
	int rc;

	if (!o->strategy)
		return sbx_stage_fail(why, len, "no strategy was uploaded, so there is nothing to score");
	j->cfg = sa_json_read(o->config, SA_JSON_CAP, err, sizeof err);
	if (!j->cfg)
		return sbx_stage_fail(why, len, "config.json unusable: %s", err);
	if (rp_read_costs(j->cfg, &j->costs, why, len) < 0 || read_exits(o, j, why, len) < 0)
		return -1;
	if (da_ohlcv_load_config(o->data, j->cfg, &j->bars, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "sealed data unusable: %s", err);
	rp_costs_floor(&j->costs, &j->bars, NULL);
	rc = read_index(o, j, why, len);
	if (rc != 0) {
		/* a refused upload is not run again, on any data */
		j->outcome = SL_NOT_RUN;
		return rc;
	}
	if (read_open(o, j, why, len) < 0 || identify(o, j, why, len) < 0 || take_budget(j, why, len) < 0)
		return -1;
	if (j->budget.spent) {
		j->outcome = SL_SPENT;
		return 1;
	}
	return 0;
}

/* The kept run's outcome: its status when it was not scorable, else the holdout's answer on
 * the score. */
static int judge(struct job *j, char *why, size_t len)
{
	char status[16] = "", err[512];
	struct sl_score sc;
	struct sl_draws d;
	int found = sl_runs_get(j->db, j->audit.set, j->run, status, &j->sig,
				&j->n_sig, err, sizeof err);

	if (found < 0)
		return sbx_stage_fail(why, len, "%s", err);
	if (found == 0)
		return sbx_stage_fail(why, len, "the sealed run is not in the ledger's history; run sealed again");
	if (!strcmp(status, sl_outcome_name(SL_REFUSED)))
		j->outcome = SL_REFUSED;
	else if (!strcmp(status, sl_outcome_name(SL_CUT_SHORT)))
		j->outcome = SL_CUT_SHORT;
	else if (strcmp(status, "ran") || !j->sig || j->n_sig != j->bars.n)
		j->outcome = SL_FAILED;
	else if (sl_score(&j->bars, j->sig, &j->costs, &sc) < 0)
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

static cJSON *score_stage(const struct sbx_stage_args *o, char *err, size_t errlen)
{
	static struct job j;
	char why[768] = "";
	cJSON *res = NULL;
	int rc;

	(void)err, (void)errlen;
	memset(&j, 0, sizeof j);
	rc = prepare(o, &j, why, sizeof why);
	if (rc == 0)
		rc = judge(&j, why, sizeof why);
	if (rc == 0 && sl_budget_record(j.db, &j.audit, j.outcome, NULL, 0, why, sizeof why) < 0)
		rc = -1;
	if (rc >= 0)
		res = tell(&j);
	else {
		res = sa_sf_new(SA_SF_SEALED);
		sa_json_fail(res, why);
	}
	sqlite3_close(j.db);
	free(j.sig);
	da_ohlcv_release(&j.bars);
	cJSON_Delete(j.cfg);
	return res;
}

int main(int argc, char **argv)
{
	static const struct sbx_stage st = { "sealed_score", SBX_STAGE_RUNS | SBX_STAGE_EXITS | SBX_STAGE_REPLAY,
					     usage, score_stage };

	return sbx_stage_main(&st, argc, argv);
}
