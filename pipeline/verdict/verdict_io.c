/* verdict_io.c - gathering the upstream stage files into verdict facts, and writing verdict.json. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "stagefile.h"
#include "verdict_io.h"
#include "verdict_sealed.h"
#include "verdict_trials.h"

/* src into dst, cut to len - 1 bytes. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src ? src : "", len - 1);

	memcpy(dst, src ? src : "", n);
	dst[n] = '\0';
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

/* Opens a stage file through the table; the status is "ok", the reason of a failed stage, or
 * why the file could not be read. */
static bool open_stage(struct sa_sf *s, const char *dir, enum sa_sfile_id id, char *status,
		       size_t len)
{
	sa_sf_open(s, dir, id);
	copy_str(status, len, s->status);
	return s->ok;
}

/* Closes a stage file; the first field that broke the table (if any) becomes the file's status
 * and the reason the verdict is incomplete. */
static void close_stage(struct sa_sf *s, struct vd_facts *f, char *status, size_t len)
{
	if (s->broken[0]) {
		if (status)
			copy_str(status, len, s->broken);
		if (!f->contract[0])
			copy_str(f->contract, sizeof f->contract, s->broken);
		f->num.broken = true;
	}
	sa_sf_close(s);
}

/* The gates' thresholds come from config.json alone, through the knob table; without a readable config.json
 * the table's defaults stand, and the status says why. */
static void load_config(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	char path[4096], err[VD_TEXT_MAX];
	cJSON *c;

	snprintf(path, sizeof path, "%s/config.json", dir);
	err[0] = '\0';
	c = sa_json_read(path, SA_JSON_CAP, err, sizeof err);
	/* A config has no verdict of its own; a readable one is used even without "ok". */
	copy_str(in->config, sizeof in->config, c ? "ok" : err);
	if (sa_config_num(c, SA_K_GATE_MIN_TRADES, &f->th.min_trades, err, sizeof err) < 0 ||
	    sa_config_num(c, SA_K_GATE_PSR, &f->th.min_psr, err, sizeof err) < 0 ||
	    sa_config_num(c, SA_K_GATE_DSR, &f->th.min_dsr, err, sizeof err) < 0 ||
	    sa_config_num(c, SA_K_GATE_MAX_DD, &f->th.max_dd, err, sizeof err) < 0 ||
	    sa_config_num(c, SA_K_GATE_PBO, &f->th.max_pbo, err, sizeof err) < 0 ||
	    sa_config_num(c, SA_K_GATE_ALPHA_T, &f->th.min_alpha_t, err, sizeof err) < 0) {
		copy_str(in->config, sizeof in->config, err);
		f->th = vd_default_thresholds();
	}
	cJSON_Delete(c);
}

/* fingerprint.json says whether the data is the bundled synthetic series (by its sha256). */
static void load_fingerprint(const char *dir, struct vd_facts *f)
{
	struct sa_sf s;

	sa_sf_open(&s, dir, SA_SF_FINGERPRINT);
	f->synthetic_data = sa_sf_bool_or(&s, NULL, SA_FD_FP_SYNTHETIC, false);
	close_stage(&s, f, NULL, 0);
}

static void load_inspect(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	struct sa_sf s;
	const cJSON *var;

	open_stage(&s, dir, SA_SF_INSPECT, in->inspect, sizeof in->inspect);
	sa_sf_obj_or_null(&s, NULL, SA_FD_IN_STRATEGY);
	f->strategy = sa_sf_bool_or(&s, NULL, SA_FD_IN_STRATEGY_PRESENT, false);
	copy_str(f->framework, sizeof f->framework,
		 f->strategy ? sa_sf_str_or(&s, NULL, SA_FD_IN_FRAMEWORK, "") : "");
	var = sa_sf_obj_or_null(&s, NULL, SA_FD_IN_VARIANTS);
	/* declared and well formed: the overfitting gate counts even if the variants could not run */
	f->num.variants = var && sa_sf_bool_or(&s, NULL, SA_FD_IN_VARIANTS_DECLARED, false) &&
			  sa_sf_num_or(&s, NULL, SA_FD_IN_VARIANTS_COUNT, 0) > 0;
	sa_sf_obj_or_null(&s, NULL, SA_FD_IN_TRADELOG);
	f->tradelog = sa_sf_bool_or(&s, NULL, SA_FD_IN_TRADELOG_PRESENT, false);
	close_stage(&s, f, in->inspect, sizeof in->inspect);
}

/* The rows of one file's "refusals" and "blocked_actions" (SA_REFUSAL_FIELDS). */
struct refusal_rows {
	enum sa_field_id list, rule, count, first, action, blocked;
};

#define REFUSAL_ROWS(F)                                                                     \
	((struct refusal_rows){ SA_FD_##F##_REFUSALS, SA_FD_##F##_REFUSALS_RULE,             \
				SA_FD_##F##_REFUSALS_COUNT, SA_FD_##F##_REFUSALS_FIRST,      \
				SA_FD_##F##_REFUSALS_FIRST_ACTION, SA_FD_##F##_BLOCKED })

/* Adds a stage's "refusals" (per rule: count, first) to the kinds the verdict names. */
static void add_kinds(struct vd_facts *f, struct sa_sf *s, struct refusal_rows rows)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, sa_sf_arr_or_null(s, NULL, rows.list)) {
		const char *rule = sa_sf_str_or(s, e, rows.rule, "unnamed");
		double n = sa_sf_num_or(s, e, rows.count, 0);
		const cJSON *first = sa_sf_obj_or_null(s, e, rows.first);
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
				 first ? sa_sf_str_or(s, e, rows.action, "unknown action") :
				 "unknown action");
		}
		f->kinds[k].count += (long)n;
	}
}

/* A stage's blocked_actions, 0 when none or out of range. */
static long blocked_of(struct sa_sf *s, struct refusal_rows rows)
{
	double blocked = sa_sf_num_or(s, NULL, rows.blocked, 0);

	return blocked > 0 && blocked < 1e9 ? (long)blocked : 0;
}

static void load_run(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	struct sa_sf s;
	const char *status;

	open_stage(&s, dir, SA_SF_RUN, in->run, sizeof in->run);
	status = sa_sf_str_or(&s, NULL, SA_FD_RUN_STATUS, "");
	/* A killed or refused run is not "ok", yet its record is exactly what the veto needs. */
	copy_str(f->run_status, sizeof f->run_status, status);
	vd_first_line(f->run_error, sizeof f->run_error, sa_sf_str_or(&s, NULL, SA_FD_RUN_ERROR, ""));
	if (status[0] && strcmp(status, "not_run") != 0)
		f->strategy = true;
	f->num.killed = strncmp(status, "killed_", 7) == 0;
	f->num.blocked_actions = blocked_of(&s, REFUSAL_ROWS(RUN));
	add_kinds(f, &s, REFUSAL_ROWS(RUN));
	close_stage(&s, f, in->run, sizeof in->run);
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
		struct sa_sf e;

		if (strspn(line, " \t\r") == strlen(line))
			continue;
		if (n++ > 0)
			continue;
		sa_sf_line(&e, SA_SF_EVENTS, line);
		copy_str(f->first_action, sizeof f->first_action,
			 sa_sf_str_or(&e, NULL, SA_FD_EV_ACTION, "unknown action"));
		copy_str(f->first_rule, sizeof f->first_rule, sa_sf_str_or(&e, NULL, SA_FD_EV_RULE, ""));
		close_stage(&e, f, NULL, 0);
	}
	if (n > f->num.blocked_actions)
		f->num.blocked_actions = n;
out:
	free(buf);
}

/* A count from a stage file, clamped to [lo, 1e12]. */
static long clamp_count(double x, double lo)
{
	return (long)fmax(lo, fmin(1e12, x));
}

static void load_lookahead(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	struct sa_sf s;
	const cJSON *first;
	double mism;

	f->lookahead_ok = open_stage(&s, dir, SA_SF_LOOKAHEAD, in->lookahead, sizeof in->lookahead);
	first = cJSON_GetArrayItem(sa_sf_arr_or_null(&s, NULL, SA_FD_LA_MISMATCHES), 0);
	mism = sa_sf_num_or(&s, NULL, SA_FD_LA_MISMATCH_COUNT, 0);
	/* Mismatches found before a later failure are still proof of a peek. */
	if (mism > 0 && mism < 1e12)
		f->num.lookahead_mismatches = (long)mism;
	/* The re-runs execute the upload too, and their refusals and kills are recorded nowhere
	 * else: code that misbehaves only when shown less history is just as unsafe. */
	f->lookahead_blocked = blocked_of(&s, REFUSAL_ROWS(LA));
	f->num.blocked_actions += f->lookahead_blocked;
	add_kinds(f, &s, REFUSAL_ROWS(LA));
	f->lookahead_points = clamp_count(sa_sf_num_or(&s, NULL, SA_FD_LA_POINTS_CHECKED, 0), 0);
	f->lookahead_run = clamp_count(sa_sf_num_or(&s, NULL, SA_FD_LA_POINTS_RUN, 0), 0);
	/* A failure where the backtest had traded is a finding, counted like a mismatch. */
	f->num.lookahead_failed = clamp_count(sa_sf_num_or(&s, NULL, SA_FD_LA_FAILED_COUNT, 0), 0);
	/* A check that does not say it finished did not. */
	f->lookahead_complete = sa_sf_bool_or(&s, NULL, SA_FD_LA_COMPLETE, false) && f->lookahead_ok;
	copy_str(f->lookahead_stopped, sizeof f->lookahead_stopped,
		 sa_sf_str_or(&s, NULL, SA_FD_LA_STOPPED, ""));
	copy_str(f->lookahead_explanation, sizeof f->lookahead_explanation,
		 sa_sf_str_or(&s, NULL, SA_FD_LA_EXPLANATION, ""));
	if (first) {
		f->first_mismatch_bar = clamp_count(sa_sf_num_or(&s, first, SA_FD_LA_MISMATCHES_BAR, -1), -1);
		copy_str(f->first_mismatch_time, sizeof f->first_mismatch_time,
			 sa_sf_str_or(&s, first, SA_FD_LA_MISMATCHES_TIME, ""));
	}
	/* every bar decided with only the bars up to it: a confirmed difference is a leak */
	vd_live_from_lookahead(&f->live, &s);
	f->num.live_leaks = f->live.ok ? f->live.leaks : 0;
	close_stage(&s, f, in->lookahead, sizeof in->lookahead);
}

/* The variant runs execute the upload too: their refusals count as the upload's. */
static void load_variants(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	struct sa_sf s;

	open_stage(&s, dir, SA_SF_VARIANTS, in->variants, sizeof in->variants);
	if (!sa_sf_present(&s) && !s.broken[0])
		copy_str(in->variants, sizeof in->variants, "not run");
	f->variants_complete = !sa_sf_present(&s) || sa_sf_bool_or(&s, NULL, SA_FD_VR_COMPLETE, false);
	f->variants_blocked = blocked_of(&s, REFUSAL_ROWS(VR));
	f->num.blocked_actions += f->variants_blocked;
	add_kinds(f, &s, REFUSAL_ROWS(VR));
	close_stage(&s, f, in->variants, sizeof in->variants);
}

/* robustness.json hindsight: a veto when flagged; a later start that differs holds it back. */
static void load_hindsight(struct sa_sf *s, struct vd_facts *f)
{
	const cJSON *h = sa_sf_obj_or_null(s, NULL, SA_FD_RB_HINDSIGHT);

	if (!h || !s->ok)
		return;
	sa_sf_obj_or_null(s, NULL, SA_FD_RB_LATER_START);
	f->num.hindsight = sa_sf_bool_or(s, NULL, SA_FD_RB_HINDSIGHT_FLAGGED, false);
	f->num.unreproducible = sa_sf_bool_or(s, NULL, SA_FD_RB_LATER_START_FLAGGED, false);
	if (f->num.hindsight || f->num.unreproducible)
		copy_str(f->hindsight_reason, sizeof f->hindsight_reason,
			 sa_sf_str_or(s, NULL, SA_FD_RB_HINDSIGHT_REASON, ""));
}

/* robustness.json warmup and permutation: shown, never scored. */
static void load_warmup_perm(struct sa_sf *s, struct vd_facts *f)
{
	const cJSON *d, *w = sa_sf_obj_or_null(s, NULL, SA_FD_RB_WARMUP);
	const cJSON *p = sa_sf_obj_or_null(s, NULL, SA_FD_RB_PERM);

	f->warmup_ok = s->ok && w && sa_sf_bool_or(s, NULL, SA_FD_RB_WARMUP_OK, false);
	f->warmup_flagged = f->warmup_ok && sa_sf_bool_or(s, NULL, SA_FD_RB_WARMUP_FLAGGED, false);
	f->warmup_failed = (long)fmax(0, fmin(1e9, sa_sf_num_or(s, NULL, SA_FD_RB_WARMUP_FAILED, 0)));
	f->warmup_worst = 0;
	if (f->warmup_ok)
		cJSON_ArrayForEach(d, sa_sf_arr_or_null(s, NULL, SA_FD_RB_WARMUP_DISAGREEMENT))
			if (cJSON_IsNumber(d) && d->valuedouble > f->warmup_worst && d->valuedouble <= 1)
				f->warmup_worst = d->valuedouble;
	f->perm_ok = s->ok && p && sa_sf_bool_or(s, NULL, SA_FD_RB_PERM_OK, false);
	f->perm_p = f->perm_ok ? sa_sf_num_or(s, NULL, SA_FD_RB_PERM_P, NAN) : NAN;
	if (!(f->perm_p >= 0 && f->perm_p <= 1))
		f->perm_ok = false;
	f->perm_runs = (long)fmax(0, fmin(1e9, sa_sf_num_or(s, NULL, SA_FD_RB_PERM_RUNS, 0)));
	f->perm_failed = (long)fmax(0, fmin(1e9, sa_sf_num_or(s, NULL, SA_FD_RB_PERM_FAILED, 0)));
}

/* The robustness re-runs execute the upload too: their refusals count as the full run's. Their
 * findings are reported, never scored. */
static void load_robust(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	struct sa_sf s;

	f->robust_ok = open_stage(&s, dir, SA_SF_ROBUSTNESS, in->robust, sizeof in->robust);
	f->robust_complete = !sa_sf_present(&s) || sa_sf_bool_or(&s, NULL, SA_FD_RB_COMPLETE, false);
	load_hindsight(&s, f);
	f->robust_blocked = blocked_of(&s, REFUSAL_ROWS(RB));
	f->num.blocked_actions += f->robust_blocked;
	add_kinds(f, &s, REFUSAL_ROWS(RB));
	load_warmup_perm(&s, f);
	close_stage(&s, f, in->robust, sizeof in->robust);
}

/* Both uploaded: what the reconciliation of the log with the replay found. */
static void load_reconcile(struct sa_sf *s, struct vd_facts *f)
{
	if (!sa_sf_obj_or_null(s, NULL, SA_FD_RP_RECONCILE))
		return;
	f->reconciled = true;
	f->log_consistent = sa_sf_bool_or(s, NULL, SA_FD_RP_RECONCILE_CONSISTENT, false);
	f->log_mean_gap = sa_sf_num_or(s, NULL, SA_FD_RP_RECONCILE_GAP, NAN);
	f->log_tolerance = sa_sf_num_or(s, NULL, SA_FD_RP_RECONCILE_TOLERANCE, NAN) / 1e4;
	copy_str(f->reconcile_statement, sizeof f->reconcile_statement,
		 sa_sf_str_or(s, NULL, SA_FD_RP_RECONCILE_STATEMENT, ""));
}

/* Whether anything was judged: a replay that succeeded had valid signals or a usable log. */
static void load_replay(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	struct sa_sf s;
	bool ok = open_stage(&s, dir, SA_SF_REPLAY, in->replay, sizeof in->replay);
	const char *mode = sa_sf_str_or(&s, NULL, SA_FD_RP_MODE, "");

	f->trusted_returns = sa_sf_bool_or(&s, NULL, SA_FD_RP_TRUSTED, false);
	/* a trade log scored alone, on no bars: the bundled series played no part */
	if (ok && !strcmp(mode, "tradelog") && sa_sf_num_or(&s, NULL, SA_FD_RP_BARS, 0) == 0)
		f->synthetic_data = false;
	if (strcmp(mode, "tradelog") == 0 || strcmp(mode, "both") == 0)
		f->tradelog = true;
	f->num.judged = ok;
	if (!ok)
		copy_str(f->replay_reason, sizeof f->replay_reason, in->replay);
	copy_str(f->signals_reason, sizeof f->signals_reason,
		 sa_sf_str_or(&s, NULL, SA_FD_RP_SIGNALS_ERROR, ""));
	if (ok)
		load_reconcile(&s, f);
	vd_live_from_replay(&f->live, &s);
	close_stage(&s, f, in->replay, sizeof in->replay);
}

/* stats.json concentration (NULL when absent: the edge without the best trades is unknown). */
static void load_concentration(struct sa_sf *s, struct vd_numbers *n)
{
	if (!sa_sf_obj_or_null(s, NULL, SA_FD_ST_CONC))
		return;
	n->mean_net_without = sa_sf_num_or(s, NULL, SA_FD_ST_CONC_WITHOUT, NAN);
	n->conc_removed = sa_sf_num_or(s, NULL, SA_FD_ST_CONC_REMOVED, NAN);
	n->top_share = sa_sf_num_or(s, NULL, SA_FD_ST_CONC_SHARE, NAN);
}

/* stats.json benchmark_relative: against the market. */
static void load_benchmark(struct sa_sf *s, struct vd_facts *f)
{
	struct vd_numbers *n = &f->num;

	copy_str(f->alpha_reason, sizeof f->alpha_reason,
		 sa_sf_str_or(s, NULL, SA_FD_ST_BENCH_REASON, "not measured"));
	if (!sa_sf_obj_or_null(s, NULL, SA_FD_ST_BENCH))
		return;
	n->alpha_t = sa_sf_num_or(s, NULL, SA_FD_ST_BENCH_ALPHA_T, NAN);
	n->alpha_known = isfinite(n->alpha_t);
	n->alpha = sa_sf_num_or(s, NULL, SA_FD_ST_BENCH_ALPHA, NAN);
	f->beta = sa_sf_num_or(s, NULL, SA_FD_ST_BENCH_BETA, NAN);
	f->beta_t = sa_sf_num_or(s, NULL, SA_FD_ST_BENCH_BETA_T, NAN);
	f->excess_return = sa_sf_num_or(s, NULL, SA_FD_ST_BENCH_EXCESS, NAN);
}

/* stats.json tail and overlap: the tail met or not, trades open at once. */
static void load_tail_overlap(struct sa_sf *s, struct vd_facts *f)
{
	if (sa_sf_obj_or_null(s, NULL, SA_FD_ST_TAIL)) {
		f->num.tail_unseen = sa_sf_bool_or(s, NULL, SA_FD_ST_TAIL_UNSEEN, false);
		copy_str(f->tail_reason, sizeof f->tail_reason,
			 sa_sf_str_or(s, NULL, SA_FD_ST_TAIL_REASON, ""));
		f->losing_trades = sa_sf_num_or(s, NULL, SA_FD_ST_TAIL_LOSING, NAN);
	}
	if (sa_sf_obj_or_null(s, NULL, SA_FD_ST_OVERLAP)) {
		f->overlapping = sa_sf_num_or(s, NULL, SA_FD_ST_OVERLAP_TRADES, 0);
		f->max_concurrent = sa_sf_num_or(s, NULL, SA_FD_ST_OVERLAP_MAX, NAN);
		f->exposure_multiple = sa_sf_num_or(s, NULL, SA_FD_ST_OVERLAP_EXPOSURE, NAN);
		f->overlap_trades = sa_sf_num_or(s, NULL, SA_FD_ST_OVERLAP_EFFECTIVE, NAN);
	}
}

/* stats.json tradeable_prices and bounce: prices anyone could trade at (absent: unknown, no
 * rule applies). */
static void load_prices(struct sa_sf *s, struct vd_facts *f)
{
	if (sa_sf_obj_or_null(s, NULL, SA_FD_ST_PRICES)) {
		f->spread_estimate = sa_sf_num_or(s, NULL, SA_FD_ST_PRICES_SPREAD, NAN);
		f->slippage_bps = sa_sf_num_or(s, NULL, SA_FD_ST_PRICES_SLIPPAGE, NAN);
		f->returns_lag1 = sa_sf_num_or(s, NULL, SA_FD_ST_PRICES_LAG1, NAN);
		f->zero_returns = sa_sf_num_or(s, NULL, SA_FD_ST_PRICES_ZERO, NAN);
		f->num.stale = sa_sf_bool_or(s, NULL, SA_FD_ST_PRICES_STALE, false);
	}
	if (sa_sf_obj_or_null(s, NULL, SA_FD_ST_BOUNCE)) {
		f->bounce_late = sa_sf_num_or(s, NULL, SA_FD_ST_BOUNCE_LATE, NAN);
		f->bounce_configured = sa_sf_num_or(s, NULL, SA_FD_ST_BOUNCE_CONFIGURED, NAN);
		f->sign_changes_late = sa_sf_bool_or(s, NULL, SA_FD_ST_BOUNCE_SIGN_LATE, false);
		f->sign_changes_spread = sa_sf_bool_or(s, NULL, SA_FD_ST_BOUNCE_SIGN_SPREAD, false);
		f->num.inside_bounce = sa_sf_bool_or(s, NULL, SA_FD_ST_BOUNCE_INSIDE, false);
	}
}

/* stats.json's trade statistics: the gates' numbers. */
static void load_trade_stats(struct sa_sf *s, struct vd_facts *f)
{
	struct vd_numbers *n = &f->num;

	n->trades = sa_sf_num_or(s, NULL, SA_FD_ST_TRADES, 0);
	n->net_return = sa_sf_num_or(s, NULL, SA_FD_ST_NET_RETURN, NAN);
	n->mean_net = sa_sf_num_or(s, NULL, SA_FD_ST_MEAN_NET, NAN);
	n->psr = sa_sf_num_or(s, NULL, SA_FD_ST_PSR, NAN);
	n->dsr = sa_sf_num_or(s, NULL, SA_FD_ST_DSR, NAN);
	n->min_trl = sa_sf_num_or(s, NULL, SA_FD_ST_MIN_TRL, NAN);
	n->max_dd = sa_sf_num_or(s, NULL, SA_FD_ST_MAX_DD, NAN);
	n->ruined = sa_sf_bool_or(s, NULL, SA_FD_ST_RUINED, false);
	copy_str(f->ruin_time, sizeof f->ruin_time,
		 n->ruined ? sa_sf_str_or(s, NULL, SA_FD_ST_RUIN_TIME, "") : "");
	f->sharpe = sa_sf_num_or(s, NULL, SA_FD_ST_SHARPE, NAN);
	f->sr0 = sa_sf_num_or(s, NULL, SA_FD_ST_SR0, NAN);
	f->psr_iid = sa_sf_num_or(s, NULL, SA_FD_ST_PSR_IID, NAN);
	f->dsr_iid = sa_sf_num_or(s, NULL, SA_FD_ST_DSR_IID, NAN);
	if (sa_sf_obj_or_null(s, NULL, SA_FD_ST_AUTOCORR)) {
		f->autocorr_trades = sa_sf_num_or(s, NULL, SA_FD_ST_AC_EFFECTIVE, NAN);
		f->trades_lag1 = sa_sf_num_or(s, NULL, SA_FD_ST_AC_LAG1, NAN);
	}
	/* the count the gates use: serial dependence and overlap both */
	n->effective_trades = sa_sf_num_or(s, NULL, SA_FD_ST_EFFECTIVE, f->autocorr_trades);
	f->effective_trades = n->effective_trades;
}

static void load_stats(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	struct sa_sf s;

	f->num.stats_ok = open_stage(&s, dir, SA_SF_STATS, in->stats, sizeof in->stats);
	if (!f->num.stats_ok) {
		copy_str(f->stats_reason, sizeof f->stats_reason, in->stats);
		goto out;
	}
	load_trade_stats(&s, f);
	load_benchmark(&s, f);
	load_tail_overlap(&s, f);
	load_prices(&s, f);
	vd_nb_load(&s, &f->nb);
	f->num.peak = f->nb.peak;
	vd_load_trials(&s, f);
	load_concentration(&s, &f->num);
out:
	close_stage(&s, f, in->stats, sizeof in->stats);
}

void vd_load_dir(const char *dir, struct vd_facts *f, struct vd_inputs *in)
{
	memset(f, 0, sizeof *f);
	memset(in, 0, sizeof *in);
	f->th = vd_default_thresholds();
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

static cJSON *add_gates(cJSON *root, const struct vd_facts *f, const struct vd_result *r)
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
	return arr;
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
		  const struct vd_sealed *sealed, const char *summary, const char *summary_source)
{
	cJSON *root = sa_sf_new(SA_SF_VERDICT);
	cJSON *vetoes, *gates;

	cJSON_AddBoolToObject(root, "ok", true);
	cJSON_AddStringToObject(root, "verdict", vd_verdict_name(r->verdict));
	cJSON_AddStringToObject(root, "gate_verdict", vd_verdict_name(r->gate_verdict));
	gates = add_gates(root, f, r);
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
	/* the effective trials as stats decided them (stats.json trials); null without statistics */
	if (f->num.stats_ok && f->trials > 0)
		cJSON_AddNumberToObject(root, "trials", (double)f->trials);
	else
		cJSON_AddNullToObject(root, "trials");
	cJSON_AddStringToObject(root, "summary", summary);
	cJSON_AddStringToObject(root, "summary_source", summary_source);
	add_inputs(root, in);
	if (sealed)
		vd_sealed_json(root, gates, sealed, r);
	return root;
}

int vd_print(struct sa_sf *v, FILE *fp)
{
	const char *verdict = sa_sf_str_or(v, NULL, SA_FD_VD_VERDICT, NULL);
	const cJSON *g, *gates = sa_sf_arr_or_null(v, NULL, SA_FD_VD_GATES);
	const cJSON *veto, *vetoes = sa_sf_arr_or_null(v, NULL, SA_FD_VD_VETOES);

	if (!v->ok || !verdict || !gates)
		return -1;
	fprintf(fp, "verdict: %s (the gates alone: %s)\n", verdict,
		sa_sf_str_or(v, NULL, SA_FD_VD_GATE_VERDICT, "unknown"));
	cJSON_ArrayForEach(g, gates)
		fprintf(fp, "  %-4s %-13s %s\n", sa_sf_bool_or(v, g, SA_FD_VD_GATES_PASS, false) ? "pass" : "FAIL",
			sa_sf_str_or(v, g, SA_FD_VD_GATES_NAME, "?"), sa_sf_str_or(v, g, SA_FD_VD_GATES_WHY, ""));
	cJSON_ArrayForEach(veto, vetoes)
		fprintf(fp, "  VETO %-13s %s\n", sa_sf_str_or(v, veto, SA_FD_VD_VETOES_NAME, "?"),
			sa_sf_str_or(v, veto, SA_FD_VD_VETOES_REASON, ""));
	fprintf(fp, "%s\n", sa_sf_str_or(v, NULL, SA_FD_VD_SUMMARY, ""));
	return v->broken[0] ? -1 : 0;
}
