/* stats_trials.c - trials, V[SR] and PBO from the declared variant family. */
#include "stats_trials.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "jsonio.h"
#include "msg.h"
#include "stats_io.h"

int sts_family_read(const cJSON *variants, struct sts_family *f)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(variants, "variants"), *v;

	memset(f, 0, sizeof *f);
	f->usable = sa_json_bool(variants, "ok", false);
	f->declared = f->usable && sa_json_bool(variants, "declared", false);
	if (!f->declared)
		return 0;
	f->count = (size_t)cJSON_GetArraySize(list);
	f->sharpe = malloc((f->count ? f->count : 1) * sizeof *f->sharpe);
	if (!f->sharpe)
		return -1;
	cJSON_ArrayForEach(v, list) {
		double sr = sa_json_num(v, "sharpe", NAN);

		if (strcmp(sa_json_str(v, "status", ""), "ok") != 0)
			continue;
		f->ran++;
		if (isfinite(sr))
			f->sharpe[f->n_sharpe++] = sr;
	}
	return 0;
}

void sts_family_release(struct sts_family *f)
{
	free(f->sharpe);
	memset(f, 0, sizeof *f);
}

void sts_trials_choose(double declared, double knob_v, const struct sts_family *f,
		      struct sts_trials *t)
{
	struct st_moments m;

	memset(t, 0, sizeof *t);
	t->trials = declared;
	t->trials_source = "declared";
	if (f->ran > 0 && (double)f->ran >= declared) {
		t->trials = (double)f->ran;
		t->trials_source = "variants";
	}
	st_moments(f->sharpe, f->n_sharpe, &m);
	if (f->n_sharpe >= 2 && isfinite(m.sd)) {
		t->has_v = true;
		t->v = m.sd * m.sd;
		t->v_source = "variants";
	} else if (knob_v > 0) {
		t->has_v = true;
		t->v = knob_v;
		t->v_source = "knob";
	} else {
		t->v_source = "null";
	}
}

static void add_sweep(cJSON *b, const struct sts_pbo *p, const struct sts_pbo_sweep *sw)
{
	cJSON *by = cJSON_AddObjectToObject(b, "by_blocks"), *spread;
	char key[16];

	for (size_t i = 0; i < sw->n; i++) {
		snprintf(key, sizeof key, "%d", sw->blocks[i]);
		sa_json_add_num(by, key, sw->value[i], ST_DIGITS);
	}
	spread = cJSON_AddObjectToObject(b, "spread");
	sa_json_add_num(spread, "min", sw->min, ST_DIGITS);
	sa_json_add_num(spread, "max", sw->max, ST_DIGITS);
	sa_json_add_num(b, "value_at_blocks", p->value, ST_DIGITS);
	cJSON_AddStringToObject(b, "method", "value is the median of CSCV's PBO at every block count "
				"of by_blocks (8, 10, 12, 14, 16 and PBO_BLOCKS, each where every block "
				"holds at least 10 bars); blocks, combinations, value_at_blocks, "
				"prob_oos_loss, degradation_slope and logit_histogram are at PBO_BLOCKS");
}

static void add_pbo(cJSON *o, const struct sts_pbo *p, const struct sts_pbo_sweep *sw)
{
	cJSON *b = cJSON_AddObjectToObject(o, "pbo"), *h, *counts;

	sa_json_add_num(b, "value", sw->median, ST_DIGITS);
	add_sweep(b, p, sw);
	cJSON_AddNumberToObject(b, "blocks", p->blocks);
	cJSON_AddNumberToObject(b, "combinations", (double)p->combinations);
	sa_json_add_num(b, "prob_oos_loss", p->prob_oos_loss, ST_DIGITS);
	sa_json_add_num(b, "degradation_slope", p->degradation_slope, ST_DIGITS);
	h = cJSON_AddObjectToObject(b, "logit_histogram");
	sa_json_add_num(h, "lo", p->hist_lo, ST_DIGITS);
	sa_json_add_num(h, "hi", p->hist_hi, ST_DIGITS);
	counts = cJSON_AddArrayToObject(h, "counts");
	for (int i = 0; i < STS_PBO_BINS; i++)
		cJSON_AddItemToArray(counts, cJSON_CreateNumber((double)p->hist[i]));
}

void sts_trials_report(cJSON *o, const struct sts_trials *t, const struct sts_family *f,
		      const struct sts_pbo *p, const struct sts_pbo_sweep *sw, const char *why)
{
	cJSON *v = cJSON_AddObjectToObject(o, "variants");
	struct st_moments m;

	cJSON_AddStringToObject(o, "trials_source", t->trials_source);
	cJSON_AddStringToObject(o, "sr_variance_source", t->v_source);
	st_moments(f->sharpe, f->n_sharpe, &m);
	cJSON_AddBoolToObject(v, "declared", f->declared);
	cJSON_AddNumberToObject(v, "count", (double)f->count);
	cJSON_AddNumberToObject(v, "ran", (double)f->ran);
	cJSON_AddNumberToObject(v, "failed", (double)(f->count - f->ran));
	sa_json_add_num(v, "sharpe_mean", f->n_sharpe ? m.mean : NAN, ST_DIGITS);
	sa_json_add_num(v, "sharpe_sd", m.sd, ST_DIGITS);
	if (p && sw) {
		add_pbo(o, p, sw);
		cJSON_AddNullToObject(o, "pbo_reason");
	} else {
		cJSON_AddNullToObject(o, "pbo");
		cJSON_AddStringToObject(o, "pbo_reason", why && *why ? why : "no variants declared");
	}
}

int sts_trials_pbo(const cJSON *config, const struct sts_family *f, const double *m,
		  size_t m_bars, size_t m_cols, const char *matrix_err, struct sts_pbo *p,
		  struct sts_pbo_sweep *sw, char *why, size_t whylen)
{
	long long blocks;

	if (!f->declared) {
		sa_fmt(why, whylen, "no variants declared");
		return -1;
	}
	if (!m) {
		sa_fmt(why, whylen, "the variants' return matrix is unusable: %s",
		       matrix_err ? matrix_err : "missing");
		return -1;
	}
	if (m_cols != f->ran) {
		sa_fmt(why, whylen, "the return matrix holds %zu variants but variants.json says %zu "
		       "ran: the files are not from the same run", m_cols, f->ran);
		return -1;
	}
	if (sa_config_int(config, SA_K_PBO_BLOCKS, &blocks, why, whylen) < 0)
		return -1;
	return sts_pbo_sweep(m, m_bars, m_cols, (int)blocks, p, sw, why, whylen);
}

void sts_trials_ledger(const cJSON *ledger, struct sts_trials *t)
{
	double n = sa_json_num(ledger, "trials", 0);

	if (ledger && n > t->trials) {
		t->trials = n;
		t->trials_source = "ledger";
	}
}

void sts_trials_ledger_report(cJSON *o, const cJSON *ledger)
{
	cJSON *l;

	if (!ledger) {
		cJSON_AddNullToObject(o, "ledger");
		return;
	}
	l = cJSON_AddObjectToObject(o, "ledger");
	cJSON_AddStringToObject(l, "lineage", sa_json_str(ledger, "lineage", ""));
	cJSON_AddNumberToObject(l, "version", sa_json_num(ledger, "version", 0));
	cJSON_AddNumberToObject(l, "versions", sa_json_num(ledger, "versions", 0));
	cJSON_AddStringToObject(l, "first_seen", sa_json_str(ledger, "first_seen", ""));
	cJSON_AddNumberToObject(l, "trials", sa_json_num(ledger, "trials", 0));
}

void sts_trials_variance_report(cJSON *o, const struct sts_trials *t, double v_used, double t_eff)
{
	double null = st_null_v_sr(t_eff);
	const char *src, *why;
	char buf[400];

	if (!t->has_v) {
		src = "null";
		why = "no spread of the trials' Sharpe ratios was measured or given: the luck-only "
		      "null 1 / (T - 1) of the effective trades";
	} else if (v_used == t->v && !(t->v < null)) {
		src = !strcmp(t->v_source, "knob") ? "knob" : "measured";
		why = sa_fmt(buf, sizeof buf, "the %s spread of the trials' Sharpe ratios (%.3g) is at "
			     "least the luck-only null 1 / (T - 1) = %.3g", !strcmp(src, "knob") ?
			     "given (TRIALS_SR_VARIANCE)" : "declared variants' measured", t->v, null);
	} else {
		src = "null_floor";
		why = sa_fmt(buf, sizeof buf, "the %s spread of the trials' Sharpe ratios (%.3g) is "
			     "below the luck-only null 1 / (T - 1) = %.3g: trials alike are no fewer "
			     "trials, so the deflation for %.0f trials uses the null", !strcmp(t->v_source,
			     "knob") ? "given" : "measured", t->v, null, t->trials);
	}
	cJSON_AddStringToObject(o, "trials_variance_source", src);
	cJSON_AddStringToObject(o, "trials_variance_reason", why);
}

/* run.json declared_search: a count, or an object holding one as "grid"; NAN when absent. */
static double optimize_grid(const cJSON *run)
{
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(run, "declared_search");
	double n = cJSON_IsObject(d) ? sa_json_num(d, "grid", NAN) : sa_json_num(run, "declared_search", NAN);

	return n >= 1 && isfinite(n) ? floor(n) : NAN;
}

void sts_trials_search(const cJSON *inspect, const cJSON *run, double epochs,
		       struct sts_trials *t, struct sts_search *s)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(inspect, "strategy");
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(st, "hyperopt_space");
	double grid = sa_json_num(h, "grid", INFINITY), n = optimize_grid(run);

	memset(s, 0, sizeof *s);
	s->epochs = epochs;
	s->hyperopt = sa_json_bool(h, "declared", false);
	s->hyperopt_grid = s->hyperopt ? (grid >= 1 ? grid : INFINITY) : NAN;
	s->optimize = !isnan(n);
	s->optimize_grid = n;
	/* a hyperopt run tries its epochs' points, never more than the space holds */
	if (s->hyperopt)
		s->counted = fmin(s->hyperopt_grid, epochs);
	if (s->optimize && n > s->counted)
		s->counted = n;
	if (s->counted > t->trials) {
		t->trials = s->counted;
		t->trials_source = "declared_search";
	}
}

void sts_trials_search_report(cJSON *o, const struct sts_search *s)
{
	cJSON *d;

	if (!s->hyperopt && !s->optimize) {
		cJSON_AddNullToObject(o, "declared_search");
		return;
	}
	d = cJSON_AddObjectToObject(o, "declared_search");
	cJSON_AddBoolToObject(d, "hyperopt", s->hyperopt);
	/* a continuous range: no count of points (null) */
	sa_json_add_num(d, "hyperopt_grid", isfinite(s->hyperopt_grid) ? s->hyperopt_grid : NAN, ST_DIGITS);
	sa_json_add_num(d, "hyperopt_epochs", s->hyperopt ? s->epochs : NAN, ST_DIGITS);
	sa_json_add_num(d, "optimize_grid", s->optimize_grid, ST_DIGITS);
	sa_json_add_num(d, "counted", s->counted, ST_DIGITS);
	cJSON_AddStringToObject(d, "rule",
		"counted = max(min(hyperopt_grid, hyperopt_epochs), optimize_grid): a hyperopt run "
		"tries HYPEROPT_EPOCHS points of its space (freqtrade's default --epochs), an "
		"optimize() call every point of its grid; the trials are at least counted");
}
