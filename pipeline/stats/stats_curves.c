/* stats_curves.c - benchmark.csv, rolling.csv, walkforward.csv and montecarlo_fan.csv. */
#include "stats_curves.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "costs.h"
#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "stats_annual.h"
#include "stats_tearsheet.h"
#include "timeutil.h"

/* What every file is written from (all borrowed). */
struct ctx {
	const struct sts_stage_in *in;
	const struct da_ohlcv *data;
	const cJSON *stats;
};

/* A number cell: 10 significant digits, as equity.csv's (a relative error below 5e-11: far
 * finer than a pixel of any chart drawn from it and than the 1e-9 its recomputation checks;
 * the full 17 made a bundle of 2 000 bars 2 % larger for digits nothing reads), empty when not
 * finite. */
static void put_num(FILE *fp, const char *sep, double x)
{
	fputs(sep, fp);
	if (isfinite(x))
		fprintf(fp, "%.10g", x == 0 ? 0.0 : x);
}

static void put_time(FILE *fp, int64_t t)
{
	char buf[21];

	fputs(sa_time_format(t, buf), fp);
}

static const cJSON *get(const cJSON *o, const char *key)
{
	return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = get(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* Buy and hold over the whole series, with config.json's costs (sts_benchmark_replay): one row
 * a bar, when there are bars and costs. */
static int benchmark_rows(FILE *fp, const struct ctx *x)
{
	const struct da_ohlcv *data = x->data;
	const cJSON *config = x->in->config;
	struct rp_costs costs;
	struct rp_result r;
	char err[256];

	fputs("time,net_equity\n", fp);
	if (!data || data->n < 2 || !sa_json_bool(config, "ok", false) ||
	    rp_read_costs(config, &costs, err, sizeof err) < 0)
		return 0;
	if (sts_benchmark_replay(data, &costs, &r) < 0)
		return -1;
	for (size_t i = 0; i < r.n_eq; i++) {
		put_time(fp, r.eq_time[i]);
		put_num(fp, ",", r.eq_net[i]);
		fputc('\n', fp);
	}
	rp_result_release(&r);
	return 0;
}

/* The rolling Sharpe ratio and volatility of equity.csv (st_rolling_annual) over stats.json's
 * window with its annualisation factor: one row an equity row, empty before a full window. */
static int rolling_rows(FILE *fp, const struct ctx *x)
{
	const struct sts_stage_in *in = x->in;
	const cJSON *stats = x->stats;
	const cJSON *roll = get(stats, "rolling_sharpe");
	size_t w = (size_t)fmax(0, num(roll, "window"));
	double *sharpe, *vol;
	int rc = -1;

	fputs("time,rolling_sharpe,rolling_volatility\n", fp);
	if (!sa_json_bool(stats, "ok", false) || w < 2 || get(roll, "note") || !in->eq_time ||
	    !in->eq_net || in->n_eq < w)
		return 0;
	sharpe = malloc(in->n_eq * sizeof *sharpe);
	vol = malloc(in->n_eq * sizeof *vol);
	if (sharpe && vol && st_rolling_annual(in->eq_net, in->n_eq, w,
					       num(get(stats, "sharpe_annualised"), "factor"),
					       sharpe, vol) == 0) {
		for (size_t i = 0; i < in->n_eq; i++) {
			put_time(fp, in->eq_time[i]);
			put_num(fp, ",", sharpe[i]);
			put_num(fp, ",", vol[i]);
			fputc('\n', fp);
		}
		rc = 0;
	}
	free(sharpe);
	free(vol);
	return rc;
}

/* The walk-forward's stitched out-of-sample equity and the hindsight column's, from bar
 * start[0] on; window is the stretch a bar belongs to (0 the first traded one). */
static int walkforward_rows(FILE *fp, const struct ctx *x)
{
	const struct sts_stage_in *in = x->in;
	const struct sts_curves *c = in->curves;
	size_t n;
	double *oos, *hind;
	int w = 0;

	fputs("bar,window,oos_equity,hindsight_equity\n", fp);
	if (!c || !c->has_wf || !in->matrix)
		return 0;
	n = in->m_bars - c->wf.start[0];
	oos = malloc((n ? n : 1) * sizeof *oos);
	hind = malloc((n ? n : 1) * sizeof *hind);
	if (!oos || !hind) {
		free(oos);
		free(hind);
		return -1;
	}
	sts_walkforward_curves(in->matrix, in->m_bars, &c->wf, oos, hind);
	for (size_t i = 0; i < n; i++) {
		size_t bar = c->wf.start[0] + i;
		while (w + 1 < c->wf.windows && bar >= c->wf.start[w + 1])
			w++;
		fprintf(fp, "%zu,%d", bar, w);
		put_num(fp, ",", oos[i]);
		put_num(fp, ",", hind[i]);
		fputc('\n', fp);
	}
	free(oos);
	free(hind);
	return 0;
}

/* The Monte Carlo's bands: at trade i n / (STS_MC_FAN_POINTS - 1), the percentiles of the
 * sequences' compounded equity. */
static int fan_rows(FILE *fp, const struct ctx *x)
{
	const struct sts_stage_in *in = x->in;
	const struct sts_curves *c = in->curves;

	fputs("trade,p5,p25,p50,p75,p95\n", fp);
	if (!c || !c->has_fan)
		return 0;
	for (size_t i = 0; i < STS_MC_FAN_POINTS; i++) {
		fprintf(fp, "%zu", i * in->n_trades / (STS_MC_FAN_POINTS - 1));
		for (int q = 0; q < 5; q++)
			put_num(fp, ",", c->fan[i * 5 + q]);
		fputc('\n', fp);
	}
	return 0;
}

/* Writes one file through rows; 0, or -1 with err. */
static int write_one(const char *path, int (*rows)(FILE *, const struct ctx *),
		     const struct ctx *x, char *err, size_t errlen)
{
	struct sa_atomic a = { 0 };
	int rc = -1;

	if (!path)
		return 0;
	if (sa_atomic_open(&a, path, err, errlen) < 0)
		return -1;
	if (rows(a.fp, x) == 0)
		rc = sa_atomic_commit(&a, err, errlen);
	else
		sa_fmt(err, errlen, "cannot write '%s': out of memory", path);
	sa_atomic_abort(&a);
	return rc;
}

int sts_write_curves(const struct sts_curve_paths *p, const struct sts_stage_in *in,
		    const struct da_ohlcv *data, const cJSON *stats, char *err, size_t errlen)
{
	const struct ctx x = { in, data, stats };

	return write_one(p->benchmark, benchmark_rows, &x, err, errlen) < 0 ||
	       write_one(p->rolling, rolling_rows, &x, err, errlen) < 0 ||
	       write_one(p->walkforward, walkforward_rows, &x, err, errlen) < 0 ||
	       write_one(p->fan, fan_rows, &x, err, errlen) < 0 ? -1 : 0;
}
