/* verdict_io.c - gathering the upstream stage files into verdict facts, and writing verdict.json. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fileio.h"
#include "jsonio.h"
#include "signals.h"
#include "msg.h"
#include "verdict_io.h"
#include "verdict_trials.h"

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

void vd_first_line(char *dst, size_t len, const char *src)
{
	size_t n = strcspn(src ? src : "", "\n"), cut;

	src = src ? src : "";
	if (n < len) {
		snprintf(dst, len, "%.*s", (int)n, src);
		return;
	}
	/* too long: cut after the last whole word that leaves room for the mark, never inside one */
	for (cut = len - 7; cut > 0 && src[cut] != ' '; cut--)
		;
	while (cut > 0 && (src[cut - 1] == ' ' || src[cut - 1] == ',' || src[cut - 1] == ';' ||
			   src[cut - 1] == ':'))
		cut--;
	snprintf(dst, len, "%.*s [...]", (int)cut, src);
}

/* Reads dir/name as a stage file; records "ok", "missing" or the reason in status. Returns the
 * tree whether or not it says ok (caller frees), or NULL when there is nothing to read. */
static cJSON *read_stage(const char *dir, const char *name, bool *ok, char *status, size_t len)
{
	char path[4096], err[VD_TEXT_MAX];
	cJSON *root;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	err[0] = '\0';
	root = sa_json_read_stage(path, ok, err, sizeof err);
	if (*ok)
		copy_str(status, len, "ok");
	else
		snprintf(status, len, "%s", err[0] ? err : "missing");
	return root;
}

/* Gates and trials come from config.json alone, through the knob table; without a readable
 * config.json the table's defaults stand, and the status says why. */
static void load_config(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	bool ok;
	cJSON *c = read_stage(dir, "config.json", &ok, in->config, sizeof in->config);
	char err[VD_TEXT_MAX];
	long long trials;

	if (c && !ok)
		/* A config has no verdict of its own; a readable one is used even without "ok". */
		copy_str(in->config, sizeof in->config, "ok");
	if (sa_config_num(c, SA_K_GATE_MIN_TRADES, &f->th.min_trades, err, sizeof err) < 0 ||
	    sa_config_num(c, SA_K_GATE_PSR, &f->th.min_psr, err, sizeof err) < 0 ||
	    sa_config_num(c, SA_K_GATE_DSR, &f->th.min_dsr, err, sizeof err) < 0 ||
	    sa_config_num(c, SA_K_GATE_MAX_DD, &f->th.max_dd, err, sizeof err) < 0 ||
	    sa_config_num(c, SA_K_GATE_PBO, &f->th.max_pbo, err, sizeof err) < 0 ||
	    sa_config_num(c, SA_K_GATE_ALPHA_T, &f->th.min_alpha_t, err, sizeof err) < 0 ||
	    sa_config_int(c, SA_K_TRIALS, &trials, err, sizeof err) < 0) {
		copy_str(in->config, sizeof in->config, err);
		f->th = vd_default_thresholds();
		trials = 1;
	}
	f->trials = (long)trials;
	cJSON_Delete(c);
}

/* fingerprint.json says whether the data is the bundled synthetic series (by its sha256). */
static void load_fingerprint(const char *dir, struct vd_facts *f)
{
	bool ok;
	char status[VD_TEXT_MAX];
	cJSON *c = read_stage(dir, "fingerprint.json", &ok, status, sizeof status);

	f->synthetic_data = sa_json_bool(c, "data_synthetic", false);
	cJSON_Delete(c);
}

static void load_inspect(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	bool ok;
	cJSON *c = read_stage(dir, "inspect.json", &ok, in->inspect, sizeof in->inspect);

	const cJSON *var = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, "strategy"),
							     "variants");

	f->strategy = sa_json_bool(cJSON_GetObjectItemCaseSensitive(c, "strategy"), "present", false);
	/* declared and well formed: the overfitting gate counts even if the variants could not run */
	f->num.variants = sa_json_bool(var, "declared", false) && sa_json_num(var, "count", 0) > 0;
	f->tradelog = sa_json_bool(cJSON_GetObjectItemCaseSensitive(c, "tradelog"), "present", false);
	cJSON_Delete(c);
}

/* Adds a stage's "refusals" (per rule: count, first) to the kinds the verdict names. */
static void add_kinds(struct vd_facts *f, const cJSON *c)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(c, "refusals")) {
		const char *rule = sa_json_str(e, "rule", "unnamed");
		double n = sa_json_num(e, "count", 0);
		size_t k = 0;

		if (!(n >= 1 && n < 1e12))
			continue;
		while (k < f->n_kinds && strcmp(f->kinds[k].rule, rule) != 0)
			k++;
		if (k == f->n_kinds && k == VD_MAX_KINDS) {
			f->kinds_more += (long)n;
			continue;
		}
		if (k == f->n_kinds) {
			f->n_kinds++;
			copy_str(f->kinds[k].rule, sizeof f->kinds[k].rule, rule);
			copy_str(f->kinds[k].first_action, sizeof f->kinds[k].first_action,
				 sa_json_str(cJSON_GetObjectItemCaseSensitive(e, "first"), "action", "unknown action"));
		}
		f->kinds[k].count += (long)n;
	}
}

static void load_run(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	bool ok;
	cJSON *c = read_stage(dir, "run.json", &ok, in->run, sizeof in->run);
	const char *status = sa_json_str(c, "status", "");

	/* A killed or refused run is not "ok", yet its record is exactly what the veto needs. */
	copy_str(f->run_status, sizeof f->run_status, status);
	vd_first_line(f->run_error, sizeof f->run_error, sa_json_str(c, "error", ""));
	if (status[0] && strcmp(status, "not_run") != 0)
		f->strategy = true;
	f->num.killed = strncmp(status, "killed_", 7) == 0;
	f->num.blocked_actions = da_run_blocked(c);
	add_kinds(f, c);
	cJSON_Delete(c);
}

/* Counts refusal records in events.jsonl; the first names the action and the rule. A line that
 * is not a JSON object still counts: the sandbox wrote it, so something was refused. */
static void load_events(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	char path[4096];
	char *buf = NULL, *line, *save = NULL;
	size_t len;
	long n = 0;
	enum sa_read_status st;

	snprintf(path, sizeof path, "%s/events.jsonl", dir);
	st = sa_read_file(path, SA_JSON_CAP, &buf, &len);
	if (st != SA_READ_OK) {
		sa_read_strerror(st, path, SA_JSON_CAP, in->events, sizeof in->events);
		goto out;
	}
	copy_str(in->events, sizeof in->events, "ok");
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		cJSON *e;

		if (strspn(line, " \t\r") == strlen(line))
			continue;
		if (n++ > 0)
			continue;
		e = cJSON_Parse(line);
		copy_str(f->first_action, sizeof f->first_action, sa_json_str(e, "action", "unknown action"));
		copy_str(f->first_rule, sizeof f->first_rule, sa_json_str(e, "rule", ""));
		cJSON_Delete(e);
	}
	if (n > f->num.blocked_actions)
		f->num.blocked_actions = n;
out:
	free(buf);
}

static void load_lookahead(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	bool ok;
	cJSON *c = read_stage(dir, "lookahead.json", &ok, in->lookahead, sizeof in->lookahead);
	const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(c, "mismatches"), 0);
	double mism = sa_json_num(c, "mismatch_count", 0);
	double blocked = sa_json_num(c, "blocked_actions", 0);

	f->lookahead_ok = ok;
	/* Mismatches found before a later failure are still proof of a peek. */
	if (mism > 0 && mism < 1e12)
		f->num.lookahead_mismatches = (long)mism;
	/* The re-runs execute the upload too, and their refusals and kills are recorded nowhere
	 * else: code that misbehaves only when shown less history is just as unsafe. */
	if (blocked > 0 && blocked < 1e9) {
		f->lookahead_blocked = (long)blocked;
		f->num.blocked_actions += f->lookahead_blocked;
	}
	add_kinds(f, c);
	f->lookahead_points = (long)fmax(0, fmin(1e12, sa_json_num(c, "points_checked", 0)));
	f->lookahead_run = (long)fmax(0, fmin(1e12, sa_json_num(c, "points_run", 0)));
	/* A failure where the backtest had traded is a finding, counted like a mismatch. */
	f->num.lookahead_failed = (long)fmax(0, fmin(1e12, sa_json_num(c, "failed_count", 0)));
	/* A check that does not say it finished did not. */
	f->lookahead_complete = ok && sa_json_bool(c, "complete", false);
	copy_str(f->lookahead_stopped, sizeof f->lookahead_stopped, sa_json_str(c, "stopped", ""));
	copy_str(f->lookahead_explanation, sizeof f->lookahead_explanation,
		 sa_json_str(c, "explanation", ""));
	if (first) {
		f->first_mismatch_bar = (long)fmax(-1, fmin(1e12, sa_json_num(first, "bar", -1)));
		copy_str(f->first_mismatch_time, sizeof f->first_mismatch_time,
			 sa_json_str(first, "time", ""));
	}
	/* every bar decided with only the bars up to it: a confirmed difference is a leak */
	vd_live_from_lookahead(&f->live, c);
	f->num.live_leaks = f->live.ok ? f->live.leaks : 0;
	cJSON_Delete(c);
}

/* The variant runs execute the upload too: their refusals count as the upload's. */
static void load_variants(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	bool ok;
	cJSON *c = read_stage(dir, "variants.json", &ok, in->variants, sizeof in->variants);
	double blocked = sa_json_num(c, "blocked_actions", 0);

	if (!c)
		copy_str(in->variants, sizeof in->variants, "not run");
	f->variants_complete = !c || sa_json_bool(c, "complete", false);
	if (blocked > 0 && blocked < 1e9) {
		f->variants_blocked = (long)blocked;
		f->num.blocked_actions += f->variants_blocked;
	}
	add_kinds(f, c);
	cJSON_Delete(c);
}

/* The robustness re-runs execute the upload too: their refusals count as the full run's. Their
 * findings are reported, never scored. */
static void load_robust(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	bool ok;
	cJSON *c = read_stage(dir, "robustness.json", &ok, in->robust, sizeof in->robust);
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(c, "warmup");
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(c, "permutation");
	const cJSON *d, *dis = cJSON_GetObjectItemCaseSensitive(w, "disagreement");
	double blocked = sa_json_num(c, "blocked_actions", 0);

	f->robust_ok = ok;
	f->robust_complete = !c || sa_json_bool(c, "complete", false);
	{
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(c, "hindsight");

		f->num.hindsight = ok && sa_json_bool(h, "flagged", false);
		f->num.unreproducible = ok && sa_json_bool(cJSON_GetObjectItemCaseSensitive(h, "later_start"),
							   "flagged", false);
		if (f->num.hindsight || f->num.unreproducible)
			copy_str(f->hindsight_reason, sizeof f->hindsight_reason,
				 sa_json_str(h, "reason", ""));
	}
	if (blocked > 0 && blocked < 1e9) {
		f->robust_blocked = (long)blocked;
		f->num.blocked_actions += f->robust_blocked;
	}
	add_kinds(f, c);
	f->warmup_ok = ok && sa_json_bool(w, "ok", false);
	f->warmup_flagged = f->warmup_ok && sa_json_bool(w, "flagged", false);
	f->warmup_failed = (long)fmax(0, fmin(1e9, sa_json_num(w, "failed_runs", 0)));
	f->warmup_worst = 0;
	cJSON_ArrayForEach(d, dis)
		if (cJSON_IsNumber(d) && d->valuedouble > f->warmup_worst && d->valuedouble <= 1)
			f->warmup_worst = d->valuedouble;
	f->perm_ok = ok && sa_json_bool(p, "ok", false);
	f->perm_p = sa_json_num(p, "p_value", NAN);
	if (!(f->perm_p >= 0 && f->perm_p <= 1))
		f->perm_ok = false;
	f->perm_runs = (long)fmax(0, fmin(1e9, sa_json_num(p, "runs", 0)));
	f->perm_failed = (long)fmax(0, fmin(1e9, sa_json_num(p, "failed_runs", 0)));
	cJSON_Delete(c);
}

/* Both uploaded: what the reconciliation of the log with the replay found. */
static void load_reconcile(const cJSON *rec, struct vd_facts *f)
{
	if (!cJSON_IsObject(rec))
		return;
	f->reconciled = true;
	f->log_consistent = sa_json_bool(rec, "consistent", false);
	f->log_mean_gap = sa_json_num(rec, "mean_gap", NAN);
	f->log_tolerance = sa_json_num(rec, "tolerance_bps", NAN) / 1e4;
	copy_str(f->reconcile_statement, sizeof f->reconcile_statement,
		 sa_json_str(rec, "statement", ""));
}

/* Whether anything was judged: a replay that succeeded had valid signals or a usable log. */
static void load_replay(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	bool ok;
	cJSON *c = read_stage(dir, "replay.json", &ok, in->replay, sizeof in->replay);
	const char *mode = sa_json_str(c, "mode", "");

	f->trusted_returns = sa_json_bool(c, "trusted_returns", false);
	/* a trade log scored alone, on no bars: the bundled series played no part */
	if (ok && !strcmp(mode, "tradelog") && sa_json_num(c, "bars", 0) == 0)
		f->synthetic_data = false;
	if (strcmp(mode, "tradelog") == 0 || strcmp(mode, "both") == 0)
		f->tradelog = true;
	f->num.judged = ok;
	if (!ok)
		copy_str(f->replay_reason, sizeof f->replay_reason,
			 sa_json_str(c, "reason", in->replay));
	copy_str(f->signals_reason, sizeof f->signals_reason, sa_json_str(c, "signals_error", ""));
	if (ok)
		load_reconcile(cJSON_GetObjectItemCaseSensitive(c, "reconcile"), f);
	vd_live_from_replay(&f->live, c);
	cJSON_Delete(c);
}

/* stats.json concentration (NULL when absent: the edge without the best trades is unknown). */
static void load_concentration(const cJSON *c, struct vd_numbers *n)
{
	n->mean_net_without = sa_json_num(c, "mean_net_return_without", NAN);
	n->conc_removed = sa_json_num(c, "removed", NAN);
	n->top_share = sa_json_num(c, "best_5pct_share", NAN);
}

/* stats.json benchmark_relative, tail and overlap: against the market, the tail met or not,
 * trades open at once. */
static void load_market(const cJSON *c, struct vd_facts *f)
{
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(c, "benchmark_relative");
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(c, "tail");
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(c, "overlap");
	struct vd_numbers *n = &f->num;

	n->alpha_known = cJSON_IsObject(b) && isfinite(sa_json_num(b, "alpha_t", NAN));
	n->alpha = sa_json_num(b, "alpha_annualised", NAN);
	n->alpha_t = sa_json_num(b, "alpha_t", NAN);
	f->beta = sa_json_num(b, "beta", NAN);
	f->beta_t = sa_json_num(b, "beta_t", NAN);
	f->excess_return = sa_json_num(b, "excess_return", NAN);
	copy_str(f->alpha_reason, sizeof f->alpha_reason,
		 sa_json_str(c, "benchmark_relative_reason", "not measured"));
	n->tail_unseen = sa_json_bool(t, "unseen", false);
	copy_str(f->tail_reason, sizeof f->tail_reason, sa_json_str(t, "reason", ""));
	f->losing_trades = sa_json_num(t, "losing_trades", NAN);
	f->overlapping = sa_json_num(o, "trades_overlapping", 0);
	f->max_concurrent = sa_json_num(o, "max_concurrent", NAN);
	f->exposure_multiple = sa_json_num(o, "exposure_multiple", NAN);
	f->overlap_trades = sa_json_num(o, "effective_trades", NAN);
}

/* stats.json tradeable_prices and bounce: prices anyone could trade at (absent: unknown, no
 * rule applies). */
static void load_prices(const cJSON *c, struct vd_facts *f)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(c, "tradeable_prices");
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(c, "bounce");

	f->spread_estimate = sa_json_num(p, "spread_estimate", NAN);
	f->slippage_bps = sa_json_num(p, "slippage_bps", NAN);
	f->returns_lag1 = sa_json_num(p, "returns_lag1", NAN);
	f->zero_returns = sa_json_num(p, "zero_returns_share", NAN);
	f->num.stale = sa_json_bool(p, "stale", false);
	f->bounce_late = sa_json_num(b, "net_return_one_bar_later", NAN);
	f->bounce_configured = sa_json_num(b, "net_return_configured_slippage", NAN);
	f->sign_changes_late = sa_json_bool(b, "sign_changes_late", false);
	f->sign_changes_spread = sa_json_bool(b, "sign_changes_spread", false);
	f->num.inside_bounce = sa_json_bool(b, "inside_bounce", false);
}

static void load_stats(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	bool ok;
	cJSON *c = read_stage(dir, "stats.json", &ok, in->stats, sizeof in->stats);
	const cJSON *ac;
	struct vd_numbers *n = &f->num;

	n->stats_ok = ok;
	if (!ok) {
		copy_str(f->stats_reason, sizeof f->stats_reason, in->stats);
		goto out;
	}
	n->trades = sa_json_num(c, "trades", 0);
	n->net_return = sa_json_num(c, "net_return", NAN);
	n->psr = sa_json_num(c, "psr", NAN);
	n->dsr = sa_json_num(c, "dsr", NAN);
	n->min_trl = sa_json_num(c, "min_trl", NAN);
	n->max_dd = sa_json_num(c, "max_drawdown", NAN);
	n->ruined = sa_json_bool(c, "ruined", false);
	copy_str(f->ruin_time, sizeof f->ruin_time, n->ruined ? sa_json_str(c, "ruin_time", "") : "");
	f->sharpe = sa_json_num(c, "sharpe", NAN);
	f->sr0 = sa_json_num(c, "sr0", NAN);
	f->psr_iid = sa_json_num(c, "psr_iid", NAN);
	f->dsr_iid = sa_json_num(c, "dsr_iid", NAN);
	ac = cJSON_GetObjectItemCaseSensitive(c, "autocorrelation");
	f->effective_trades = sa_json_num(ac, "effective_trades", NAN);
	f->autocorr_trades = f->effective_trades;
	/* the count the gates use: serial dependence and overlap both (older files: the first) */
	n->effective_trades = sa_json_num(c, "effective_trades", f->effective_trades);
	f->effective_trades = n->effective_trades;
	load_market(c, f);
	load_prices(c, f);
	vd_nb_load(c, &f->nb);
	f->num.peak = f->nb.peak;
	f->trades_lag1 = sa_json_num(ac, "trades_lag1", NAN);
	vd_load_trials(c, f);
	n->mean_net = sa_json_num(c, "mean_net_return", NAN);
	load_concentration(cJSON_GetObjectItemCaseSensitive(c, "concentration"), n);
	if (isnan(n->mean_net) && n->trades > 0)
		/* Older stats files lack the mean; the Sharpe ratio has its sign. */
		n->mean_net = sa_json_num(c, "mean_return", f->sharpe);
out:
	cJSON_Delete(c);
}

void vd_load_dir(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	memset(f, 0, sizeof *f);
	memset(in, 0, sizeof *in);
	f->th = vd_default_thresholds();
	f->trials = 1;
	f->first_mismatch_bar = -1;
	f->num.trades = 0;
	f->num.mean_net = f->num.net_return = f->num.psr = f->num.dsr = NAN;
	f->num.mean_net_without = f->num.conc_removed = f->num.top_share = NAN;
	f->num.min_trl = f->num.max_dd = f->sharpe = f->sr0 = NAN;
	f->psr_iid = f->dsr_iid = f->effective_trades = f->trades_lag1 = NAN;
	f->num.pbo = NAN;
	f->num.effective_trades = f->num.alpha = f->num.alpha_t = NAN;
	f->beta = f->beta_t = f->excess_return = f->losing_trades = NAN;
	f->spread_estimate = f->slippage_bps = f->returns_lag1 = f->zero_returns = NAN;
	f->bounce_late = f->bounce_configured = NAN;
	f->search_hyperopt_grid = f->search_optimize_grid = f->search_counted = NAN;
	f->max_concurrent = f->exposure_multiple = f->overlap_trades = f->autocorr_trades = NAN;
	load_config(dir, f, in);
	load_fingerprint(dir, f);
	load_inspect(dir, f, in);
	load_run(dir, f, in);
	load_events(dir, f, in);
	/* After run and events: it adds the re-runs' refusals to the full run's. */
	load_lookahead(dir, f, in);
	load_robust(dir, f, in);
	load_variants(dir, f, in);
	load_replay(dir, f, in);
	load_stats(dir, f, in);
	/* The checks that run the upload must have finished for the verdict to pass. */
	f->num.unfinished = f->strategy &&
		(!f->lookahead_complete || !f->robust_complete || !f->variants_complete);
}

static void add_gates(cJSON *root, const struct vd_facts *f, const struct vd_result *r)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "gates");
	char why[VD_TEXT_MAX * 2];

	for (int g = 0; g < r->ngates; g++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "name", vd_gate_name((enum vd_gate)g));
		sa_json_add_num(o, "value", r->gates[g].value, 6);
		sa_json_add_num(o, "threshold", r->gates[g].threshold, 6);
		cJSON_AddBoolToObject(o, "pass", r->gates[g].pass);
		cJSON_AddStringToObject(o, "why", vd_gate_why(f, r, (enum vd_gate)g, why, sizeof why));
		cJSON_AddItemToArray(arr, o);
	}
}

static void add_veto(cJSON *arr, const char *name, const struct vd_facts *f,
		     const struct vd_result *r, enum vd_verdict v)
{
	/* room for the live replay's words and the hindsight reason whole, with the others */
	char why[VD_TEXT_MAX * 10];
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddStringToObject(o, "reason", vd_veto_reason(f, r, v, why, sizeof why));
	cJSON_AddItemToArray(arr, o);
}

static void add_inputs(cJSON *root, const struct vd_inputs *in)
{
	cJSON *o = cJSON_AddObjectToObject(root, "inputs");

	cJSON_AddStringToObject(o, "config", in->config);
	cJSON_AddStringToObject(o, "inspect", in->inspect);
	cJSON_AddStringToObject(o, "run", in->run);
	cJSON_AddStringToObject(o, "events", in->events);
	cJSON_AddStringToObject(o, "lookahead", in->lookahead);
	cJSON_AddStringToObject(o, "robust", in->robust);
	cJSON_AddStringToObject(o, "variants", in->variants);
	cJSON_AddStringToObject(o, "replay", in->replay);
	cJSON_AddStringToObject(o, "stats", in->stats);
}

/* The robustness findings as the verdict saw them. */
static void add_robust(cJSON *root, const struct vd_facts *f)
{
	cJSON *o = cJSON_AddObjectToObject(root, "robustness");

	cJSON_AddBoolToObject(o, "checked", f->robust_ok);
	if (f->warmup_ok)
		cJSON_AddBoolToObject(o, "warmup_flagged", f->warmup_flagged);
	else
		cJSON_AddNullToObject(o, "warmup_flagged");
	sa_json_add_num(o, "permutation_p", f->perm_ok ? f->perm_p : NAN, 6);
	/* warm-up and permutation are shown, not scored; hindsight vetoes, a later start holds */
	cJSON_AddBoolToObject(o, "hindsight_flagged", f->num.hindsight);
	cJSON_AddBoolToObject(o, "later_start_flagged", f->num.unreproducible);
	cJSON_AddBoolToObject(o, "changes_verdict", f->num.hindsight || f->num.unreproducible);
}

/* The prices rules as the verdict applied them. */
static void add_prices(cJSON *root, const struct vd_facts *f, const struct vd_result *r)
{
	cJSON *o = cJSON_AddObjectToObject(root, "tradeable_prices");

	cJSON_AddBoolToObject(o, "inside_bounce", f->num.inside_bounce);
	cJSON_AddBoolToObject(o, "stale", f->num.stale);
	cJSON_AddBoolToObject(o, "bounce_capped", r->bounce_capped);
	cJSON_AddBoolToObject(o, "stale_capped", r->stale_capped);
}

/* Which checks that run the upload did not finish, and whether that held the verdict back. */
static void add_unfinished(cJSON *root, const struct vd_facts *f, const struct vd_result *r)
{
	cJSON *list = cJSON_AddArrayToObject(root, "unfinished");

	if (f->strategy && !f->lookahead_complete)
		cJSON_AddItemToArray(list, cJSON_CreateString("lookahead"));
	if (f->strategy && !f->robust_complete)
		cJSON_AddItemToArray(list, cJSON_CreateString("robustness"));
	if (f->strategy && !f->variants_complete)
		cJSON_AddItemToArray(list, cJSON_CreateString("variants"));
	cJSON_AddBoolToObject(root, "held_back", r->held_back);
}

cJSON *vd_to_json(const struct vd_facts *f, const struct vd_result *r, const struct vd_inputs *in,
		  const char *summary, const char *summary_source)
{
	cJSON *root = sa_json_stage("verdict", 1);
	cJSON *vetoes;

	cJSON_AddBoolToObject(root, "ok", true);
	cJSON_AddStringToObject(root, "verdict", vd_verdict_name(r->verdict));
	cJSON_AddStringToObject(root, "gate_verdict", vd_verdict_name(r->gate_verdict));
	add_gates(root, f, r);
	vetoes = cJSON_AddArrayToObject(root, "vetoes");
	if (r->veto_unsafe)
		add_veto(vetoes, "unsafe", f, r, VD_REJECTED_UNSAFE);
	if (r->veto_lookahead)
		add_veto(vetoes, "lookahead", f, r, VD_REJECTED_LOOKAHEAD);
	cJSON_AddBoolToObject(root, "incomplete", r->incomplete);
	add_unfinished(root, f, r);
	cJSON_AddBoolToObject(root, "ruined", f->num.ruined);
	cJSON_AddNumberToObject(root, "blocked_actions", (double)f->num.blocked_actions);
	cJSON_AddNumberToObject(root, "lookahead_mismatches", (double)f->num.lookahead_mismatches);
	cJSON_AddNumberToObject(root, "lookahead_failed", (double)f->num.lookahead_failed);
	add_robust(root, f);
	add_prices(root, f, r);
	vd_nb_json(root, &f->nb, r->peak_capped);
	vd_live_json(root, &f->live);
	sa_json_add_num(root, "trades", f->num.stats_ok ? f->num.trades : 0, 12);
	cJSON_AddNumberToObject(root, "trials", (double)f->trials);
	cJSON_AddStringToObject(root, "summary", summary);
	cJSON_AddStringToObject(root, "summary_source", summary_source);
	add_inputs(root, in);
	return root;
}

int vd_print(const cJSON *v, FILE *fp)
{
	const char *verdict = sa_json_str(v, "verdict", NULL);
	const cJSON *g, *gates = cJSON_GetObjectItemCaseSensitive(v, "gates");
	const cJSON *veto, *vetoes = cJSON_GetObjectItemCaseSensitive(v, "vetoes");
	int rc = -1;

	if (!verdict || !cJSON_IsArray(gates))
		goto out;
	fprintf(fp, "verdict: %s (the gates alone: %s)\n", verdict,
		sa_json_str(v, "gate_verdict", "unknown"));
	cJSON_ArrayForEach(g, gates)
		fprintf(fp, "  %-4s %-13s %s\n", sa_json_bool(g, "pass", false) ? "pass" : "FAIL",
			sa_json_str(g, "name", "?"), sa_json_str(g, "why", ""));
	cJSON_ArrayForEach(veto, vetoes)
		fprintf(fp, "  VETO %-13s %s\n", sa_json_str(veto, "name", "?"),
			sa_json_str(veto, "reason", ""));
	fprintf(fp, "%s\n", sa_json_str(v, "summary", ""));
	rc = 0;
out:
	return rc;
}
