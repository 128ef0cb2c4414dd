/* verdict_trials.c - trials, V[SR] and PBO in a verdict, and their plain words. */
#include "verdict_trials.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagefile.h"

/* pbo.by_blocks and pbo.spread: how far the block count moves PBO (nothing when absent). */
static void load_sweep(struct sa_sf *s, struct vd_facts *f)
{
	const cJSON *by = sa_sf_obj_or_null(s, NULL, SA_FD_ST_PBO_BY_BLOCKS), *it;

	f->pbo_blocks = sa_sf_num_or(s, NULL, SA_FD_ST_PBO_BLOCKS, NAN);
	f->pbo_min = f->pbo_max = NAN;
	if (sa_sf_obj_or_null(s, NULL, SA_FD_ST_PBO_SPREAD)) {
		f->pbo_min = sa_sf_num_or(s, NULL, SA_FD_ST_PBO_SPREAD_MIN, NAN);
		f->pbo_max = sa_sf_num_or(s, NULL, SA_FD_ST_PBO_SPREAD_MAX, NAN);
	}
	f->pbo_counts = 0;
	f->pbo_s_lo = f->pbo_s_hi = NAN;
	cJSON_ArrayForEach(it, by) {
		double x = strtod(it->string, NULL);

		f->pbo_counts++;
		if (!(x >= f->pbo_s_lo))
			f->pbo_s_lo = x;
		if (!(x <= f->pbo_s_hi))
			f->pbo_s_hi = x;
	}
}

/* stats.json declared_search: the searches the file itself declares (NAN when none). */
static void load_search(struct sa_sf *s, struct vd_facts *f)
{
	f->search_hyperopt = false;
	f->search_hyperopt_grid = f->search_optimize_grid = f->search_counted = NAN;
	if (!sa_sf_obj_or_null(s, NULL, SA_FD_ST_SEARCH))
		return;
	f->search_hyperopt = sa_sf_bool_or(s, NULL, SA_FD_ST_SEARCH_HYPEROPT, false);
	f->search_hyperopt_grid = sa_sf_num_or(s, NULL, SA_FD_ST_SEARCH_HYPEROPT_GRID, NAN);
	f->search_optimize_grid = sa_sf_num_or(s, NULL, SA_FD_ST_SEARCH_OPTIMIZE_GRID, NAN);
	f->search_counted = sa_sf_num_or(s, NULL, SA_FD_ST_SEARCH_COUNTED, NAN);
}

void vd_load_trials(struct sa_sf *stats, struct vd_facts *f)
{
	double trials = sa_sf_num_or(stats, NULL, SA_FD_ST_TRIALS, 0), ran = 0;

	/* decided by stats alone (TRIALS, the variants, the ledger, a declared search) */
	f->trials = trials >= 1 && trials < 1e9 ? (long)trials : 0;
	snprintf(f->trials_source, sizeof f->trials_source, "%s",
		 sa_sf_str_or(stats, NULL, SA_FD_ST_TRIALS_SOURCE, ""));
	snprintf(f->v_source, sizeof f->v_source, "%s", sa_sf_str_or(stats, NULL, SA_FD_ST_V_SOURCE, ""));
	if (sa_sf_obj_or_null(stats, NULL, SA_FD_ST_VARIANTS)) {
		f->num.variants = sa_sf_bool_or(stats, NULL, SA_FD_ST_VARIANTS_DECLARED, false) ||
				  f->num.variants;
		ran = sa_sf_num_or(stats, NULL, SA_FD_ST_VARIANTS_RAN, 0);
	}
	f->variants_ran = ran > 0 && ran < 1e9 ? (long)ran : 0;
	f->num.pbo = NAN;
	f->pbo_combinations = 0;
	if (sa_sf_obj_or_null(stats, NULL, SA_FD_ST_PBO)) {
		f->num.pbo = sa_sf_num_or(stats, NULL, SA_FD_ST_PBO_VALUE, NAN);
		f->pbo_combinations = sa_sf_num_or(stats, NULL, SA_FD_ST_PBO_COMBINATIONS, 0);
	}
	load_sweep(stats, f);
	load_search(stats, f);
	snprintf(f->pbo_reason, sizeof f->pbo_reason, "%s",
		 sa_sf_str_or(stats, NULL, SA_FD_ST_PBO_REASON, ""));
}

char *vd_pbo_words(const struct vd_facts *f, char *buf, size_t len)
{
	/* of 100, not of 10: 0.46 is not "5 of 10" beside a gate that needs below 0.50 */
	double in100 = round(100.0 * f->num.pbo);

	buf[0] = '\0';
	if (isfinite(f->num.pbo))
		snprintf(buf, len, "in %.0f of 100 splits of its history the variant that looked best "
			 "in-sample ranked at or below the median out of sample", in100);
	return buf;
}

char *vd_why_overfitting(const struct vd_facts *f, char *buf, size_t len)
{
	char words[VD_TEXT_MAX * 2];

	if (!isfinite(f->num.pbo))
		snprintf(buf, len, "PBO not measured: %s", f->pbo_reason[0] ? f->pbo_reason : "unknown");
	else if (f->pbo_counts > 1)
		snprintf(buf, len, "PBO %.2f, the median over %.0f block counts from %.0f to %.0f (from "
			 "%.2f to %.2f; %.0f splits at %.0f blocks) of %ld variants: %s; below %.2f "
			 "needed", f->num.pbo, f->pbo_counts, f->pbo_s_lo, f->pbo_s_hi, f->pbo_min,
			 f->pbo_max, f->pbo_combinations, f->pbo_blocks, f->variants_ran,
			 vd_pbo_words(f, words, sizeof words), f->th.max_pbo);
	else
		snprintf(buf, len, "PBO %.2f over %.0f splits of %ld variants: %s; below %.2f needed",
			 f->num.pbo, f->pbo_combinations, f->variants_ran,
			 vd_pbo_words(f, words, sizeof words), f->th.max_pbo);
	return buf;
}

char *vd_variance_line(const struct vd_facts *f, char *buf, size_t len)
{
	buf[0] = '\0';
	if (strcmp(f->v_source, "variants") == 0)
		snprintf(buf, len, "The deflation measured how far luck spreads Sharpe ratios from the "
			 "%ld declared variants themselves.", f->variants_ran);
	else if (strcmp(f->v_source, "knob") == 0)
		snprintf(buf, len, "The deflation took the spread of the trials' Sharpe ratios from "
			 "TRIALS_SR_VARIANCE, as given for trials run elsewhere.");
	else if (strcmp(f->v_source, "null") == 0)
		snprintf(buf, len, "With only a count of trials, the deflation assumed the spread of "
			 "Sharpe ratios that pure luck gives over %.0f trade%s.", f->num.trades,
			 f->num.trades == 1 ? "" : "s");
	return buf;
}

char *vd_search_line(const struct vd_facts *f, char *buf, size_t len)
{
	char hyp[200] = "", opt[120] = "";

	buf[0] = '\0';
	if (!(f->search_counted >= 1))
		return buf;
	if (f->search_hyperopt && isfinite(f->search_hyperopt_grid))
		snprintf(hyp, sizeof hyp, "a freqtrade hyperopt space of %.0f points",
			 f->search_hyperopt_grid);
	else if (f->search_hyperopt)
		snprintf(hyp, sizeof hyp, "a freqtrade hyperopt space with a continuous range");
	if (isfinite(f->search_optimize_grid))
		snprintf(opt, sizeof opt, "an optimize() grid of %.0f", f->search_optimize_grid);
	snprintf(buf, len, "The file declares a search (%s%s%s), so the deflation counts at least "
		 "%.0f trials%s.", hyp, hyp[0] && opt[0] ? " and " : "", opt, f->search_counted,
		 strcmp(f->trials_source, "declared_search") == 0 ? ", more than TRIALS said" : "");
	return buf;
}
