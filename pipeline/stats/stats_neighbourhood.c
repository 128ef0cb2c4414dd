/* stats_neighbourhood.c - plateau or peak (stats_neighbourhood.h). */
#include "stats_neighbourhood.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "jsonio.h"
#include "msg.h"
#include "stats_core.h"

static const cJSON *nb_of_inspect(const cJSON *inspect)
{
	return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(inspect, "strategy"),
					       "neighbourhood");
}

static int unmeasured(struct sts_nb *nb, const char *why)
{
	nb->measured = false;
	sa_fmt(nb->why, sizeof nb->why, "%s", why);
	return 0;
}

/* Each set's per-bar Sharpe ratio from its column; the counts. Returns 0, -1 out of memory. */
static int set_sharpes(const cJSON *list, const double *m, size_t bars, size_t cols,
		       struct sts_nb *nb)
{
	const cJSON *v;
	size_t i = 0, col = 0;

	nb->sharpe = malloc((nb->sets + 1) * sizeof *nb->sharpe);
	if (!nb->sharpe)
		return -1;
	cJSON_ArrayForEach(v, list) {
		const char *status = sa_json_str(v, "status", "");
		struct st_moments mo;

		if (i > nb->sets)
			break;
		nb->sharpe[i] = NAN;
		if (!strcmp(status, "ok") && col < cols) {
			st_moments(m + col * bars, bars, &mo);
			nb->sharpe[i] = st_sharpe(&mo);
			/* a flat column (no trade) has no Sharpe ratio: it keeps nothing */
			if (!isfinite(nb->sharpe[i]))
				nb->sharpe[i] = 0;
			col++;
			if (i > 0)
				nb->ran++;
		} else if (i > 0 && !strcmp(status, "not_run")) {
			nb->not_run++;
		} else if (i > 0) {
			nb->failed++;
		}
		i++;
	}
	return 0;
}

/* The median over the neighbours that ran or failed (a failed one kept nothing: 0). */
static int neighbours_median(struct sts_nb *nb, const cJSON *list)
{
	double *x = malloc((nb->sets ? nb->sets : 1) * sizeof *x);
	const cJSON *v;
	size_t n = 0, i = 0;

	if (!x)
		return -1;
	cJSON_ArrayForEach(v, list) {
		if (i > nb->sets)
			break;
		if (i > 0 && strcmp(sa_json_str(v, "status", ""), "not_run"))
			x[n++] = isfinite(nb->sharpe[i]) ? nb->sharpe[i] : 0;
		i++;
	}
	gsl_sort(x, 1, n);
	nb->median = n ? gsl_stats_median_from_sorted_data(x, 1, n) : NAN;
	free(x);
	return 0;
}

/* A correlation this low or lower counts as this: ln of it bounds the decay of a neighbour that
 * trades other bars entirely (or never trades). */
#define NB_RHO_FLOOR 0.01

/* The moved parameter a set moves alone (its params hold exactly one key, a moved parameter
 * with a non-zero value), its index among the moved ones and its centre value; -1 if none. */
static int moved_alone(const cJSON *spec, const cJSON *set_params, double *v, double *v0)
{
	const cJSON *p, *only = set_params ? set_params->child : NULL;
	int k = 0;

	if (!only || only->next || !cJSON_IsNumber(only))
		return -1;
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(spec, "parameters")) {
		if (!sa_json_bool(p, "moved", false))
			continue;
		if (!strcmp(sa_json_str(p, "name", ""), only->string)) {
			*v = only->valuedouble;
			*v0 = sa_json_num(p, "value", NAN);
			return isfinite(*v0) && *v0 != 0 && *v / *v0 > 0 ? k : -1;
		}
		k++;
	}
	return -1;
}

/* The family's independent trials: along each moved parameter, how fast the returns of the sets
 * that move it alone decorrelate from the centre's (decay, per unit of log distance), and over a
 * search spanning span that many times more values, 1 + decay ln(span) independent rules; their
 * product over the parameters. Returns 0, -1 out of memory. */
static int family_trials(const cJSON *spec, const cJSON *list, const double *m, size_t bars,
			 size_t cols, struct sts_nb *nb)
{
	double *num = calloc(nb->moved + 1, sizeof *num), *den = calloc(nb->moved + 1, sizeof *den);
	const cJSON *v;
	size_t col = 0;

	nb->decay = calloc(nb->moved + 1, sizeof *nb->decay);
	if (!num || !den || !nb->decay) {
		free(num);
		free(den);
		return -1;
	}
	nb->n_decay = nb->moved;
	cJSON_ArrayForEach(v, list) {
		double x, x0, d, rho;
		int k;

		if (strcmp(sa_json_str(v, "status", ""), "ok") || col >= cols)
			continue;
		k = col ? moved_alone(spec, cJSON_GetObjectItemCaseSensitive(v, "params"), &x, &x0) : -1;
		if (k >= 0 && (size_t)k < nb->moved) {
			d = fabs(log(x / x0));
			rho = gsl_stats_correlation(m, 1, m + col * bars, 1, bars);
			/* a flat neighbour (no trade) shares nothing with the centre */
			rho = isfinite(rho) ? fmin(fmax(rho, NB_RHO_FLOOR), 1.0) : NB_RHO_FLOOR;
			num[k] += d * -log(rho);
			den[k] += d * d;
		}
		col++;
	}
	nb->family = 1;
	for (size_t k = 0; k < nb->moved; k++) {
		nb->decay[k] = den[k] > 0 ? num[k] / den[k] : NAN;
		if (isfinite(nb->decay[k]))
			nb->family *= 1 + nb->decay[k] * log(nb->span);
	}
	/* whole rules: a family that holds 1.8 holds one (a part of one is no second trial) */
	nb->family = fmin(floor(nb->family), STS_NB_MAX_IMPLIED);
	free(num);
	free(den);
	return 0;
}

int sts_nb_measure(const cJSON *inspect, const cJSON *nbjson, const char *nbjson_err,
		   const double *m, size_t bars, size_t cols, const char *matrix_err,
		   double keep_min, double span, struct sts_nb *nb)
{
	const cJSON *spec = nb_of_inspect(inspect), *list, *p;
	size_t n_sets;

	memset(nb, 0, sizeof *nb);
	nb->keep = nb->centre = nb->median = nb->implied = nb->family = NAN;
	nb->keep_min = keep_min;
	nb->span = span;
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(spec, "parameters"))
		nb->moved += sa_json_bool(p, "moved", false);
	if (!sa_json_bool(spec, "declared", false))
		return unmeasured(nb, "the strategy has no numeric parameter to move (no keyword default "
				  "of signals(), numeric class attribute or numeric hyperopt parameter)");
	if (!nbjson)
		return unmeasured(nb, nbjson_err && *nbjson_err ? nbjson_err : "neighbourhood.json was not given");
	if (!sa_json_bool(nbjson, "ok", false))
		return unmeasured(nb, sa_json_str(nbjson, "reason", "neighbourhood.json says ok: false"));
	list = cJSON_GetObjectItemCaseSensitive(nbjson, "variants");
	n_sets = (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(spec, "sets"));
	if (n_sets < 2 || (size_t)cJSON_GetArraySize(list) != n_sets)
		return unmeasured(nb, "neighbourhood.json does not hold inspect.json's sets");
	if (!m)
		return unmeasured(nb, matrix_err && *matrix_err ? matrix_err : "no return matrix");
	if (cols != (size_t)sa_json_num(nbjson, "ran", -1))
		return unmeasured(nb, "the neighbourhood's return matrix does not match neighbourhood.json");
	nb->sets = n_sets - 1;
	if (set_sharpes(list, m, bars, cols, nb) < 0 || neighbours_median(nb, list) < 0)
		return -1;
	if (!isfinite(nb->sharpe[0]) || strcmp(sa_json_str(list->child, "status", ""), "ok"))
		return unmeasured(nb, "the centre (the audited parameters, run as a neighbour is) did not run");
	if (2 * (nb->ran + nb->failed) < nb->sets)
		return unmeasured(nb, "fewer than half the neighbours ran in the time budget");
	nb->centre = nb->sharpe[0];
	nb->measured = true;
	if (family_trials(spec, list, m, bars, cols, nb) < 0)
		return -1;
	if (nb->centre > 0) {
		nb->keep = nb->median / nb->centre;
		nb->peak = nb->keep < keep_min;
	}
	if (nb->peak)
		nb->implied = fmin(pow(STS_NB_LEVELS, (double)nb->moved), STS_NB_MAX_IMPLIED);
	return 0;
}

void sts_nb_release(struct sts_nb *nb)
{
	free(nb->sharpe);
	free(nb->decay);
	nb->sharpe = NULL;
	nb->decay = NULL;
}

void sts_nb_trials(const struct sts_nb *nb, struct sts_trials *t)
{
	if (nb->measured && nb->centre > 0 && nb->family > t->trials) {
		t->trials = nb->family;
		t->trials_source = "neighbourhood_family";
	}
	if (nb->measured && nb->peak && nb->implied > t->trials) {
		t->trials = nb->implied;
		t->trials_source = "neighbourhood";
	}
}

static void add_parameters(cJSON *o, const struct sts_nb *nb, const cJSON *spec)
{
	cJSON *list = cJSON_AddArrayToObject(o, "parameters");
	const cJSON *p;
	size_t k = 0;

	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(spec, "parameters")) {
		cJSON *e;

		if (!sa_json_bool(p, "moved", false))
			continue;
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "name", sa_json_str(p, "name", ""));
		cJSON_AddStringToObject(e, "from", sa_json_str(p, "from", ""));
		sa_json_add_num(e, "value", sa_json_num(p, "value", NAN), ST_DIGITS);
		sa_json_add_num(e, "decay", nb->decay && k < nb->n_decay ? nb->decay[k] : NAN, ST_DIGITS);
		k++;
		cJSON_AddItemToArray(list, e);
	}
}

static void add_sets(cJSON *o, const struct sts_nb *nb, const cJSON *spec, const cJSON *nbjson)
{
	cJSON *list = cJSON_AddArrayToObject(o, "sets");
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(spec, "sets")->child;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(nbjson, "variants")->child;

	for (size_t i = 0; i <= nb->sets && s && v; i++, s = s->next, v = v->next) {
		cJSON *e = cJSON_CreateObject();
		double sr = nb->sharpe[i];

		cJSON_AddNumberToObject(e, "set", (double)i);
		cJSON_AddItemToObject(e, "steps", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(s, "steps"), true));
		cJSON_AddItemToObject(e, "params", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(v, "params"), true));
		cJSON_AddStringToObject(e, "status", sa_json_str(v, "status", ""));
		sa_json_add_num(e, "sharpe", sr, ST_DIGITS);
		sa_json_add_num(e, "net_return", sa_json_num(v, "net_return", NAN), ST_DIGITS);
		sa_json_add_num(e, "keep", nb->centre > 0 && isfinite(sr) ? sr / nb->centre : NAN, ST_DIGITS);
		cJSON_AddItemToArray(list, e);
	}
}

void sts_nb_report(cJSON *o, const struct sts_nb *nb, const cJSON *inspect, const cJSON *nbjson)
{
	cJSON *n = cJSON_AddObjectToObject(o, "neighbourhood");
	const cJSON *spec = nb_of_inspect(inspect);

	cJSON_AddBoolToObject(n, "measured", nb->measured);
	if (nb->measured)
		cJSON_AddNullToObject(n, "reason");
	else
		cJSON_AddStringToObject(n, "reason", nb->why);
	if (!nb->measured)
		cJSON_AddNullToObject(n, "shape");
	else
		cJSON_AddStringToObject(n, "shape", nb->centre <= 0 ? "no_edge" : nb->peak ? "peak" : "plateau");
	add_parameters(n, nb, spec);
	cJSON_AddBoolToObject(n, "grid", sa_json_bool(spec, "grid", false));
	sa_json_add_num(n, "centre_sharpe", nb->centre, ST_DIGITS);
	sa_json_add_num(n, "median_sharpe", nb->median, ST_DIGITS);
	sa_json_add_num(n, "keep", nb->keep, ST_DIGITS);
	sa_json_add_num(n, "keep_min", nb->keep_min, ST_DIGITS);
	sa_json_add_num(n, "implied_trials", nb->implied, ST_DIGITS);
	sa_json_add_num(n, "span", nb->span, ST_DIGITS);
	sa_json_add_num(n, "family_trials", nb->family, ST_DIGITS);
	cJSON_AddNumberToObject(n, "neighbours", (double)nb->sets);
	cJSON_AddNumberToObject(n, "ran", (double)nb->ran);
	cJSON_AddNumberToObject(n, "failed", (double)nb->failed);
	cJSON_AddNumberToObject(n, "not_run", (double)nb->not_run);
	if (nb->sharpe)
		add_sets(n, nb, spec, nbjson);
	else
		cJSON_AddArrayToObject(n, "sets");
	cJSON_AddStringToObject(n, "rule",
		"each set's per-bar Sharpe ratio is mean / sd (ddof 1) of its column of "
		"neighbourhood_returns.bin (a flat column: 0); keep is the neighbours' median over the "
		"centre's (a neighbour whose run failed counts 0, one the time budget left unrun is "
		"left out); a peak keeps less than keep_min (NEIGHBOUR_KEEP) and counts as a search of "
		"5 values a moved parameter, 5^parameters trials (at most 100000), in the deflation; "
		"whatever the shape, a centre with an edge counts at least the family's independent "
		"trials: per moved parameter, decay is sum(d * -ln rho) / sum(d^2) over the sets that "
		"move it alone (d = |ln(value / centre's value)|, rho the Pearson correlation of the "
		"set's column with the centre's, at least 0.01, a flat column 0.01), and the family "
		"holds the product of 1 + decay ln(span) (NEIGHBOUR_SPAN), rounded down to a whole number, "
		"at most 100000");
}
