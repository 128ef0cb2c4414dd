/* stats_checks.c - SPA, walk-forward selection and the Monte Carlo of the trades, into
 * stats.json. */
#include "stats_checks.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "jsonio.h"
#include "msg.h"
#include "stats_core.h"
#include "stats_montecarlo.h"
#include "stats_overlap.h"
#include "stats_spa.h"
#include "stats_walkforward.h"

/* The matrix, when the family was declared and its matrix matches variants.json; else NULL
 * with why. */
static const double *family_matrix(const struct sts_stage_in *in, char *why, size_t len)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(in->variants, "variants"), *v;
	size_t ran = 0;

	if (!in->variants || !sa_json_bool(in->variants, "ok", false) ||
	    !sa_json_bool(in->variants, "declared", false)) {
		sa_fmt(why, len, "no variants declared");
		return NULL;
	}
	if (!in->matrix) {
		sa_fmt(why, len, "the variants' return matrix is unusable: %s",
		       in->matrix_err && *in->matrix_err ? in->matrix_err : "missing");
		return NULL;
	}
	cJSON_ArrayForEach(v, list)
		ran += strcmp(sa_json_str(v, "status", ""), "ok") == 0;
	if (ran != in->m_cols) {
		sa_fmt(why, len, "the return matrix holds %zu variants but variants.json says %zu ran",
		       in->m_cols, ran);
		return NULL;
	}
	return in->matrix;
}

/* The variant number (variants.json's "variant") of matrix column j, else j + 1. */
static double variant_of(const cJSON *variants, size_t j)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(variants, "variants"), *v;
	size_t k = 0;

	cJSON_ArrayForEach(v, list)
		if (strcmp(sa_json_str(v, "status", ""), "ok") == 0 && k++ == j)
			return sa_json_num(v, "variant", (double)j + 1);
	return (double)j + 1;
}

static void add_null(cJSON *o, const char *key, const char *reason_key, const char *why)
{
	cJSON_AddNullToObject(o, key);
	cJSON_AddStringToObject(o, reason_key, why);
}

static void add_spa(cJSON *o, const struct sts_stage_in *in, unsigned long seed)
{
	char why[512];
	const double *m = family_matrix(in, why, sizeof why);
	struct sts_spa s;
	cJSON *b;

	if (!m || sts_spa(m, in->m_bars, in->m_cols, STS_SPA_RESAMPLES, seed, 0.0, &s, why,
			 sizeof why) < 0) {
		add_null(o, "spa", "spa_reason", why);
		return;
	}
	b = cJSON_AddObjectToObject(o, "spa");
	sa_json_add_num(b, "p_value", s.p_value, ST_DIGITS);
	sa_json_add_num(b, "p_lower", s.p_lower, ST_DIGITS);
	sa_json_add_num(b, "p_upper", s.p_upper, ST_DIGITS);
	sa_json_add_num(b, "reality_check_p", s.reality_check_p, ST_DIGITS);
	sa_json_add_num(b, "block_length", s.block_length, ST_DIGITS);
	cJSON_AddNumberToObject(b, "resamples", (double)s.resamples);
	cJSON_AddNumberToObject(b, "seed", (double)s.seed);
	cJSON_AddStringToObject(b, "benchmark", "flat");
	cJSON_AddNullToObject(o, "spa_reason");
}

static void add_walk_forward(cJSON *o, const struct sts_stage_in *in, double factor)
{
	char why[512];
	const double *m = family_matrix(in, why, sizeof why);
	struct sts_walkforward w;
	long long windows;
	cJSON *b, *ch;

	if (m && sa_config_int(in->config, SA_K_WALKFORWARD_WINDOWS, &windows, why, sizeof why) < 0)
		m = NULL;
	if (!m || sts_walkforward(m, in->m_bars, in->m_cols, (int)windows, &w, why, sizeof why) < 0) {
		add_null(o, "walk_forward", "walk_forward_reason", why);
		return;
	}
	b = cJSON_AddObjectToObject(o, "walk_forward");
	cJSON_AddNumberToObject(b, "windows", w.windows);
	ch = cJSON_AddArrayToObject(b, "choices");
	for (int i = 0; i < w.windows; i++)
		cJSON_AddItemToArray(ch, cJSON_CreateNumber(variant_of(in->variants, w.choices[i])));
	sa_json_add_num(b, "oos_sharpe_annualised", w.oos_sharpe * factor, ST_DIGITS);
	sa_json_add_num(b, "oos_net_return", w.oos_net_return, ST_DIGITS);
	sa_json_add_num(b, "is_sharpe_annualised", w.is_sharpe * factor, ST_DIGITS);
	sa_json_add_num(b, "efficiency", w.is_sharpe > 0.0 ? w.oos_sharpe / w.is_sharpe : NAN,
			ST_DIGITS);
	cJSON_AddNullToObject(o, "walk_forward_reason");
	if (in->curves) {
		in->curves->wf = w;
		in->curves->has_wf = true;
	}
}

/* The closed trades' net returns, in trades.csv's order (caller frees). */
/* The trades' net returns on the headline's account: each times its share of it (1 / the most
 * trades open at once in its life, lib/stats/stats_overlap.h), so trades open together are
 * shares of one account, as the headline compounds them, not each a full-account bet. A new
 * array (caller frees), or NULL when memory ran out. */
static double *trade_returns(const struct sts_stage_in *in)
{
	size_t n = in->n_trades ? in->n_trades : 1;
	double *r = malloc(n * sizeof *r), *share = malloc(n * sizeof *share);
	int64_t *entry = malloc(n * sizeof *entry), *exit = malloc(n * sizeof *exit);
	struct st_overlap ov;

	if (!r || !share || !entry || !exit)
		goto fail;
	for (size_t i = 0; i < in->n_trades; i++) {
		entry[i] = in->trades[i].entry;
		exit[i] = in->trades[i].exit;
	}
	if (st_overlap_spans(entry, exit, in->n_trades, &ov, share) < 0)
		goto fail;
	for (size_t i = 0; i < in->n_trades; i++)
		r[i] = in->trades[i].net * share[i];
	goto out;
fail:
	free(r);
	r = NULL;
out:
	free(share);
	free(entry);
	free(exit);
	return r;
}

static void add_quantiles(cJSON *b, const char *key, const char *const *names, const double *v)
{
	cJSON *q = cJSON_AddObjectToObject(b, key);

	for (int i = 0; i < 3; i++)
		sa_json_add_num(q, names[i], v[i], ST_DIGITS);
}

/* One resampling's figures into b. */
static void add_mc_figures(cJSON *b, const struct sts_montecarlo *mc)
{
	static const char *const dd_names[] = { "p50", "p95", "p99" };
	static const char *const ret_names[] = { "p5", "p50", "p95" };
	cJSON *p;

	add_quantiles(b, "max_drawdown", dd_names, (double[]){ mc->dd_p50, mc->dd_p95, mc->dd_p99 });
	add_quantiles(b, "net_return", ret_names, (double[]){ mc->ret_p5, mc->ret_p50, mc->ret_p95 });
	sa_json_add_num(b, "ruin_probability", mc->ruin_probability, ST_DIGITS);
	p = cJSON_AddObjectToObject(b, "drawdown_probability");
	sa_json_add_num(p, "20 %", mc->dd_prob_20, ST_DIGITS);
	sa_json_add_num(p, "50 %", mc->dd_prob_50, ST_DIGITS);
	sa_json_add_num(b, "observed_percentile", mc->observed_percentile, ST_DIGITS);
}

/* The bands by stationary blocks of trades (runs of trades stay together, as the trades'
 * dependence has them), the iid draws beside them, one seed for both. */
static int add_monte_carlo(cJSON *o, const struct sts_stage_in *in, unsigned long seed)
{
	struct sts_montecarlo mc, iid;
	char why[512];
	long long n;
	double *r;
	cJSON *b;

	if (sa_config_int(in->config, SA_K_MONTE_CARLO, &n, why, sizeof why) < 0) {
		add_null(o, "monte_carlo", "monte_carlo_reason", why);
		return 0;
	}
	r = trade_returns(in);
	if (!r)
		return -1;
	if (sts_montecarlo(r, in->n_trades, (size_t)n, seed, STS_MC_BLOCKS, &mc,
			  in->curves ? in->curves->fan : NULL, why, sizeof why) < 0 ||
	    sts_montecarlo(r, in->n_trades, (size_t)n, seed, STS_MC_BOOTSTRAP, &iid, NULL, why,
			  sizeof why) < 0) {
		free(r);
		add_null(o, "monte_carlo", "monte_carlo_reason", why);
		return 0;
	}
	free(r);
	b = cJSON_AddObjectToObject(o, "monte_carlo");
	cJSON_AddNumberToObject(b, "resamples", (double)mc.resamples);
	cJSON_AddStringToObject(b, "method", "stationary_blocks");
	cJSON_AddNumberToObject(b, "mean_block", (double)mc.mean_block);
	cJSON_AddStringToObject(b, "method_note", "the bands are of sequences of the closed trades "
				"drawn with replacement in stationary blocks (Politis and Romano 1994) of "
				"mean length trades^(1/3) rounded, the Sharpe ratio bootstrap's mean block, "
				"so runs of trades stay together; iid holds the same figures for trades "
				"drawn one at a time, from the same seed; each trade's net return on the "
				"headline's account, times its share of it (1 / the most trades open at "
				"once in its life, overlap), so trades open together are shares of one "
				"account, not each a full-account bet; no sequence can hold a trade "
				"worse than observed_worst_trade");
	cJSON_AddStringToObject(b, "basis", "account_shares");
	cJSON_AddNumberToObject(b, "seed", (double)seed);
	cJSON_AddNumberToObject(b, "trades", (double)mc.trades);
	add_mc_figures(b, &mc);
	sa_json_add_num(b, "observed_max_drawdown", mc.observed_max_drawdown, ST_DIGITS);
	sa_json_add_num(b, "observed_worst_trade", mc.observed_worst_trade, ST_DIGITS);
	add_mc_figures(cJSON_AddObjectToObject(b, "iid"), &iid);
	cJSON_AddNullToObject(o, "monte_carlo_reason");
	if (in->curves)
		in->curves->has_fan = true;
	return 0;
}

int sts_checks_report(cJSON *o, const struct sts_stage_in *in, double annual_factor)
{
	long long seed;
	char why[512];

	if (sa_config_int(in->config, SA_K_BOOTSTRAP_SEED, &seed, why, sizeof why) < 0) {
		add_null(o, "spa", "spa_reason", why);
		add_null(o, "walk_forward", "walk_forward_reason", why);
		add_null(o, "monte_carlo", "monte_carlo_reason", why);
		return 0;
	}
	add_spa(o, in, (unsigned long)seed);
	add_walk_forward(o, in, annual_factor);
	return add_monte_carlo(o, in, (unsigned long)seed);
}
