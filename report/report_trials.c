/* report_trials.c - the Trials section: variant Sharpe ratios, SR0 and PBO, from the same
 * numbers as the XLSX sheet Variants. */
#include "report_trials.h"

#include "ledger.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "msg.h"
#include "report_chart.h"
#include "report_fmt.h"

/* The Sharpe ratios of the variants that ran, from variants.csv. *n is 0 when none. */
static double *ran_sharpes(const struct rpt_input *in, size_t *n)
{
	const struct rpt_table *tb = &in->variant_rows;
	int st = rpt_table_col(tb, "status"), sh = rpt_table_col(tb, "sharpe");
	double *v = malloc((tb->rows ? tb->rows : 1) * sizeof *v);

	*n = 0;
	for (size_t r = 0; v && tb->rows && r < tb->rows - 1; r++)
		if (strcmp(rpt_table_get(tb, r, st), "ok") == 0 &&
		    rpt_parse_num(rpt_table_get(tb, r, sh), &v[*n]) == 0)
			(*n)++;
	return v;
}

static bool declared(const struct rpt_input *in)
{
	return sa_sf_bool_or(rpt_sf(in, SA_SF_VARIANTS), NULL, SA_FD_VR_DECLARED, false);
}

/* The field k of s as it is (NULL when it is not there, or null where its row allows). */
static const cJSON *item(struct sa_sf *s, enum sa_field_id k)
{
	const cJSON *it = NULL;

	sa_sf_item(s, NULL, k, &it);
	return it;
}

int rpt_trials_charts(const char *dir, const struct rpt_input *in, char *err, size_t errlen)
{
	struct sa_sf *s = rpt_sf_ok(in, SA_SF_STATS);
	const char *why = !in->variants ? "no variants.json: no strategy was run"
		: !declared(in) ? "the strategy declares no VARIANTS" : "no variant ran";
	char path[4096];
	size_t n = 0;
	double *sr = ran_sharpes(in, &n);
	int rc = -1;

	if (!sr) {
		sa_fmt(err, errlen, "out of memory");
		return -1;
	}
	if (rpt_chart_variants(sa_fmt(path, sizeof path, "%s/variants.png", dir), sr, n,
			       sa_sf_num_or(s, NULL, SA_FD_ST_SHARPE, NAN),
			       sa_sf_num_or(s, NULL, SA_FD_ST_SR0, NAN), why, err, errlen) == 0 &&
	    rpt_chart_pbo(sa_fmt(path, sizeof path, "%s/pbo.png", dir), item(s, SA_FD_ST_PBO),
			  sa_sf_str_or(s, NULL, SA_FD_ST_PBO_REASON, why), err, errlen) == 0)
		rc = 0;
	free(sr);
	return rc;
}

static void add_fmt(cJSON *o, const char *key, const cJSON *v, int decimals)
{
	char buf[64];

	cJSON_AddStringToObject(o, key, rpt_fmt_num(v, decimals, buf, sizeof buf));
}

/* Which V[SR] the deflation used, in words a non-quant can read. */
static const char *variance_line(struct sa_sf *s, char *buf, size_t len)
{
	const char *src = sa_sf_str_or(s, NULL, SA_FD_ST_V_SOURCE, "");
	double trades = sa_sf_num_or(s, NULL, SA_FD_ST_TRADES, 0);

	if (strcmp(src, "variants") == 0)
		return sa_fmt(buf, len, "How far luck spreads Sharpe ratios was measured on the %.0f "
			      "declared variants themselves.",
			      sa_sf_num_or(s, NULL, SA_FD_ST_VARIANTS_RAN, 0));
	if (strcmp(src, "knob") == 0)
		return sa_fmt(buf, len, "How far luck spreads Sharpe ratios was given by "
			      "TRIALS_SR_VARIANCE, for trials run elsewhere.");
	if (strcmp(src, "null") == 0)
		return sa_fmt(buf, len, "With only a count of trials, the spread of Sharpe ratios was "
			      "taken as what pure luck gives over %.0f trade%s.",
			      trades, trades == 1 ? "" : "s");
	return sa_fmt(buf, len, "No statistics: the deflation was not computed.");
}

/* PBO at each block count, in words: "0.34 at 8 blocks, 0.46 at 10, ..."; "" without them. */
static char *say_by_blocks(const cJSON *by_blocks, char *buf, size_t len)
{
	const cJSON *it;
	size_t used = 0;
	int n = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(it, by_blocks) {
		int w = snprintf(buf + used, len - used, "%s%.2f at %s%s", n ? ", " : "",
				 cJSON_IsNumber(it) ? it->valuedouble : NAN, it->string,
				 n ? "" : " blocks");
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
		n++;
	}
	return buf;
}

static void add_pbo(cJSON *t, struct sa_sf *s)
{
	const cJSON *pbo = item(s, SA_FD_ST_PBO);
	double v = sa_sf_num_or(s, NULL, SA_FD_ST_PBO_VALUE, NAN);
	char buf[256];

	cJSON_AddBoolToObject(t, "pbo", pbo != NULL);
	cJSON_AddStringToObject(t, "pbo_reason", sa_sf_str_or(s, NULL, SA_FD_ST_PBO_REASON, "not computed"));
	if (!pbo)
		return;
	add_fmt(t, "pbo_value", item(s, SA_FD_ST_PBO_VALUE), 3);
	add_fmt(t, "prob_oos_loss", item(s, SA_FD_ST_PBO_OOS_LOSS), 3);
	add_fmt(t, "degradation_slope", item(s, SA_FD_ST_PBO_SLOPE), 3);
	add_fmt(t, "blocks", item(s, SA_FD_ST_PBO_BLOCKS), 0);
	add_fmt(t, "combinations", item(s, SA_FD_ST_PBO_COMBINATIONS), 0);
	add_fmt(t, "pbo_at_blocks", item(s, SA_FD_ST_PBO_AT_BLOCKS), 3);
	cJSON_AddStringToObject(t, "pbo_by_blocks", say_by_blocks(item(s, SA_FD_ST_PBO_BY_BLOCKS), buf,
								  sizeof buf));
	cJSON_AddStringToObject(t, "pbo_words", sa_fmt(buf, sizeof buf,
		"In %.0f of 100 splits of the history, the variant that looked best in-sample ranked at "
		"or below the median out of sample.", round(100 * v)));
}

static cJSON *variant_rows(const struct rpt_input *in)
{
	static const char *const cols[] = { "variant", "params", "status", "trades", "sharpe",
					    "net_return" };
	const struct rpt_table *tb = &in->variant_rows;
	cJSON *rows = cJSON_CreateArray();

	for (size_t r = 0; rows && tb->rows && r < tb->rows - 1; r++) {
		cJSON *o = cJSON_CreateObject();

		for (int c = 0; c < 6; c++) {
			const char *cell = rpt_table_get(tb, r, rpt_table_col(tb, cols[c]));
			char buf[64];
			double x;

			/* the figures as the rest of the report shows them; the CSV keeps every digit */
			if (c == 4 && rpt_parse_num(cell, &x) == 0)
				cell = sa_fmt(buf, sizeof buf, "%.3f", x);
			else if (c == 5 && rpt_parse_num(cell, &x) == 0)
				cell = sa_fmt(buf, sizeof buf, "%.2f %%", 100 * x);
			cJSON_AddStringToObject(o, cols[c], cell);
		}
		cJSON_AddBoolToObject(o, "failed",
				      strcmp(rpt_table_get(tb, r, rpt_table_col(tb, "status")), "ok") != 0);
		cJSON_AddItemToArray(rows, o);
	}
	return rows;
}

/* Where the trials came from, in words. */
static const char *trials_source_words(const char *source)
{
	if (strcmp(source, "variants") == 0)
		return "the declared variants that ran";
	if (strcmp(source, "neighbourhood") == 0)
		return "the search the peak of its parameters implies (the neighbourhood: 5 values a "
		       "parameter moved)";
	if (strcmp(source, "neighbourhood_family") == 0)
		return "the independent rules its parameters' family holds (how fast the neighbours' "
		       "returns decorrelate, over a search of NEIGHBOUR_SPAN a parameter)";
	if (strcmp(source, "ledger") == 0)
		return "the trial ledger: every version of this strategy the nightly has seen, each "
		       "counting its declared variants";
	return "the TRIALS declared";
}

/* A fraction as a signed percentage, "-" when it is not a number. */
static void add_pct(cJSON *o, const char *key, const cJSON *x)
{
	char buf[64];

	if (cJSON_IsNumber(x))
		snprintf(buf, sizeof buf, "%+.2f %%", 100 * x->valuedouble);
	else
		snprintf(buf, sizeof buf, "-");
	cJSON_AddStringToObject(o, key, buf);
}

int rpt_forward_model(cJSON *model, const struct rpt_input *in)
{
	struct sa_sf *s = rpt_sf_ok(in, SA_SF_STATS);
	const cJSON *f = item(s, SA_FD_ST_FORWARD), *band = item(s, SA_FD_ST_FORWARD_BAND);
	cJSON *o;
	bool has_band = cJSON_GetArraySize(band) == 2;
	bool inside = sa_sf_bool_or(s, NULL, SA_FD_ST_FORWARD_INSIDE, false);
	double net = sa_sf_num_or(s, NULL, SA_FD_ST_FORWARD_NET, NAN);

	if (!f) {
		cJSON_AddNullToObject(model, "forward");
		return 0;
	}
	o = cJSON_AddObjectToObject(model, "forward");
	if (!o)
		return -1;
	cJSON_AddStringToObject(o, "since", sa_sf_str_or(s, NULL, SA_FD_ST_FORWARD_SINCE, ""));
	add_fmt(o, "bars", item(s, SA_FD_ST_FORWARD_BARS), 0);
	add_fmt(o, "trades", item(s, SA_FD_ST_FORWARD_TRADES), 0);
	add_pct(o, "net_return", item(s, SA_FD_ST_FORWARD_NET));
	add_fmt(o, "sharpe_annualised", item(s, SA_FD_ST_FORWARD_SHARPE), 2);
	add_pct(o, "band_lo", has_band ? cJSON_GetArrayItem(band, 0) : NULL);
	add_pct(o, "band_hi", has_band ? cJSON_GetArrayItem(band, 1) : NULL);
	add_fmt(o, "band_trades", item(s, SA_FD_ST_FORWARD_BAND_TRADES), 0);
	cJSON_AddBoolToObject(o, "has_band", has_band);
	cJSON_AddStringToObject(o, "words", !has_band ? "There were no in-sample trades to draw a band from."
		: inside ? "That is inside the band: the edge has held up on bars no one could tune to."
		: net < cJSON_GetArrayItem(band, 0)->valuedouble
			? "That is below the band: the edge decayed once the bars were ones no one had seen."
			: "That is above the band: better than the backtest suggested, on too few bars to lean on.");
	return 0;
}

/* The trial ledger's sentence of stats.json: "" without a ledger. */
static const char *ledger_line(struct sa_sf *s, char *buf, size_t len)
{
	da_ledger_sentence(s, buf, len);
	return buf;
}

int rpt_trials_model(cJSON *model, const struct rpt_input *in)
{
	struct sa_sf *s = rpt_sf_ok(in, SA_SF_STATS), *v = rpt_sf(in, SA_SF_VARIANTS);
	cJSON *t = cJSON_AddObjectToObject(model, "trials");
	char buf[640];

	if (!t)
		return -1;
	cJSON_AddBoolToObject(t, "declared", declared(in));
	cJSON_AddBoolToObject(t, "deflated", s->ok);
	add_fmt(t, "count", item(v, SA_FD_VR_COUNT), 0);
	add_fmt(t, "ran", item(v, SA_FD_VR_RAN), 0);
	add_fmt(t, "failed", item(v, SA_FD_VR_FAILED), 0);
	cJSON_AddBoolToObject(t, "any_failed", sa_sf_num_or(v, NULL, SA_FD_VR_FAILED, 0) > 0);
	add_fmt(t, "trials", item(s, SA_FD_ST_TRIALS), 0);
	cJSON_AddStringToObject(t, "trials_source",
				trials_source_words(sa_sf_str_or(s, NULL, SA_FD_ST_TRIALS_SOURCE, "")));
	cJSON_AddStringToObject(t, "ledger_line", ledger_line(s, buf, sizeof buf));
	cJSON_AddStringToObject(t, "variance_line", variance_line(s, buf, sizeof buf));
	add_fmt(t, "sr_variance", item(s, SA_FD_ST_SR_VARIANCE), 6);
	add_fmt(t, "sr0", item(s, SA_FD_ST_SR0), 3);
	add_fmt(t, "sharpe", item(s, SA_FD_ST_SHARPE), 3);
	add_pbo(t, s);
	cJSON_AddItemToObject(t, "rows", variant_rows(in));
	return 0;
}
