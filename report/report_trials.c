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
	return sa_json_bool(in->variants, "declared", false);
}

int rpt_trials_charts(const char *dir, const struct rpt_input *in, char *err, size_t errlen)
{
	const cJSON *stats = rpt_stage_ok(in, RPT_STATS);
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
			       sa_json_num(stats, "sharpe", NAN), sa_json_num(stats, "sr0", NAN), why,
			       err, errlen) == 0 &&
	    rpt_chart_pbo(sa_fmt(path, sizeof path, "%s/pbo.png", dir),
			  cJSON_GetObjectItemCaseSensitive(stats, "pbo"),
			  sa_json_str(stats, "pbo_reason", why), err, errlen) == 0)
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
static const char *variance_line(const cJSON *stats, char *buf, size_t len)
{
	const char *src = sa_json_str(stats, "sr_variance_source", "");
	const cJSON *var = cJSON_GetObjectItemCaseSensitive(stats, "variants");

	if (strcmp(src, "variants") == 0)
		return sa_fmt(buf, len, "How far luck spreads Sharpe ratios was measured on the %.0f "
			      "declared variants themselves.", sa_json_num(var, "ran", 0));
	if (strcmp(src, "knob") == 0)
		return sa_fmt(buf, len, "How far luck spreads Sharpe ratios was given by "
			      "TRIALS_SR_VARIANCE, for trials run elsewhere.");
	if (strcmp(src, "null") == 0)
		return sa_fmt(buf, len, "With only a count of trials, the spread of Sharpe ratios was "
			      "taken as what pure luck gives over %.0f trade%s.",
			      sa_json_num(stats, "trades", 0), sa_json_num(stats, "trades", 0) == 1 ? "" : "s");
	return sa_fmt(buf, len, "No statistics: the deflation was not computed.");
}

/* PBO at each block count, in words: "0.34 at 8 blocks, 0.46 at 10, ..."; "" without them. */
static char *say_by_blocks(const cJSON *pbo, char *buf, size_t len)
{
	const cJSON *it;
	size_t used = 0;
	int n = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(pbo, "by_blocks")) {
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

static void add_pbo(cJSON *t, const cJSON *stats)
{
	const cJSON *pbo = cJSON_GetObjectItemCaseSensitive(stats, "pbo");
	double v = sa_json_num(pbo, "value", NAN);
	char buf[256];

	cJSON_AddBoolToObject(t, "pbo", cJSON_IsObject(pbo));
	cJSON_AddStringToObject(t, "pbo_reason", sa_json_str(stats, "pbo_reason", "not computed"));
	if (!cJSON_IsObject(pbo))
		return;
	add_fmt(t, "pbo_value", cJSON_GetObjectItemCaseSensitive(pbo, "value"), 3);
	add_fmt(t, "prob_oos_loss", cJSON_GetObjectItemCaseSensitive(pbo, "prob_oos_loss"), 3);
	add_fmt(t, "degradation_slope", cJSON_GetObjectItemCaseSensitive(pbo, "degradation_slope"), 3);
	add_fmt(t, "blocks", cJSON_GetObjectItemCaseSensitive(pbo, "blocks"), 0);
	add_fmt(t, "combinations", cJSON_GetObjectItemCaseSensitive(pbo, "combinations"), 0);
	add_fmt(t, "pbo_at_blocks", cJSON_GetObjectItemCaseSensitive(pbo, "value_at_blocks"), 3);
	cJSON_AddStringToObject(t, "pbo_by_blocks", say_by_blocks(pbo, buf, sizeof buf));
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
		cJSON_AddBoolToObject(o, "failed", strcmp(sa_json_str(o, "status", ""), "ok") != 0);
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
	const cJSON *stats = rpt_stage_ok(in, RPT_STATS);
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(stats, "forward");
	const cJSON *band = cJSON_GetObjectItemCaseSensitive(f, "band");
	cJSON *o;
	bool has_band = cJSON_GetArraySize(band) == 2, inside = sa_json_bool(f, "inside", false);
	double net = sa_json_num(f, "net_return", NAN);

	if (!cJSON_IsObject(f)) {
		cJSON_AddNullToObject(model, "forward");
		return 0;
	}
	o = cJSON_AddObjectToObject(model, "forward");
	if (!o)
		return -1;
	cJSON_AddStringToObject(o, "since", sa_json_str(f, "since", ""));
	add_fmt(o, "bars", cJSON_GetObjectItemCaseSensitive(f, "bars"), 0);
	add_fmt(o, "trades", cJSON_GetObjectItemCaseSensitive(f, "trades"), 0);
	add_pct(o, "net_return", cJSON_GetObjectItemCaseSensitive(f, "net_return"));
	add_fmt(o, "sharpe_annualised", cJSON_GetObjectItemCaseSensitive(f, "sharpe_annualised"), 2);
	add_pct(o, "band_lo", has_band ? cJSON_GetArrayItem(band, 0) : NULL);
	add_pct(o, "band_hi", has_band ? cJSON_GetArrayItem(band, 1) : NULL);
	add_fmt(o, "band_trades", cJSON_GetObjectItemCaseSensitive(f, "band_trades"), 0);
	cJSON_AddBoolToObject(o, "has_band", has_band);
	cJSON_AddStringToObject(o, "words", !has_band ? "There were no in-sample trades to draw a band from."
		: inside ? "That is inside the band: the edge has held up on bars no one could tune to."
		: net < cJSON_GetArrayItem(band, 0)->valuedouble
			? "That is below the band: the edge decayed once the bars were ones no one had seen."
			: "That is above the band: better than the backtest suggested, on too few bars to lean on.");
	return 0;
}

/* The trial ledger's sentence of stats.json, read through the stage-file table: "" without a
 * ledger; a file breaking the table says what could not be read instead. */
static const char *ledger_line(const cJSON *stats, char *buf, size_t len)
{
	struct sa_sf sf;

	sa_sf_view(&sf, stats, SA_SF_STATS);
	da_ledger_sentence(&sf, buf, len);
	if (sf.broken[0])
		snprintf(buf, len, "a version the report cannot place in the trial ledger: %s", sf.broken);
	sa_sf_close(&sf);
	return buf;
}

int rpt_trials_model(cJSON *model, const struct rpt_input *in)
{
	const cJSON *stats = rpt_stage_ok(in, RPT_STATS);
	cJSON *t = cJSON_AddObjectToObject(model, "trials");
	char buf[640];

	if (!t)
		return -1;
	cJSON_AddBoolToObject(t, "declared", declared(in));
	cJSON_AddBoolToObject(t, "deflated", stats != NULL);
	add_fmt(t, "count", cJSON_GetObjectItemCaseSensitive(in->variants, "count"), 0);
	add_fmt(t, "ran", cJSON_GetObjectItemCaseSensitive(in->variants, "ran"), 0);
	add_fmt(t, "failed", cJSON_GetObjectItemCaseSensitive(in->variants, "failed"), 0);
	cJSON_AddBoolToObject(t, "any_failed", sa_json_num(in->variants, "failed", 0) > 0);
	add_fmt(t, "trials", cJSON_GetObjectItemCaseSensitive(stats, "trials"), 0);
	cJSON_AddStringToObject(t, "trials_source", trials_source_words(sa_json_str(stats, "trials_source", "")));
	cJSON_AddStringToObject(t, "ledger_line", ledger_line(stats, buf, sizeof buf));
	cJSON_AddStringToObject(t, "variance_line", variance_line(stats, buf, sizeof buf));
	add_fmt(t, "sr_variance", cJSON_GetObjectItemCaseSensitive(stats, "sr_variance"), 6);
	add_fmt(t, "sr0", cJSON_GetObjectItemCaseSensitive(stats, "sr0"), 3);
	add_fmt(t, "sharpe", cJSON_GetObjectItemCaseSensitive(stats, "sharpe"), 3);
	add_pbo(t, stats);
	cJSON_AddItemToObject(t, "rows", variant_rows(in));
	return 0;
}
