/* variants_core.c - a variant's replay summarised, and variants.csv (its return matrix: vmatrix.c). */
#include "variants_core.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "stats_annual.h"
#include "stats_core.h"

int vr_summarise(const struct rp_result *r, struct vr_variant *v, double *col, size_t n)
{
	struct st_moments m;
	double *net = rp_trade_nets(r);
	size_t k;

	if (!net)
		return -1;
	st_moments(net, r->n_trades, &m);
	v->trades = r->n_trades;
	v->sharpe = st_sharpe(&m);
	v->net_return = r->net_return;
	/* the per-bar returns of the compounded net curve, the basis of every per-bar figure; a
	 * ruined curve, and bars past its end, move nothing */
	k = st_curve_returns(r->eq_net, r->n_eq < n ? r->n_eq : n, col);
	for (size_t t = k; t < n; t++)
		col[t] = 0.0;
	free(net);
	return 0;
}

/* A CSV field holding JSON: quoted, each quote doubled. */
static int put_quoted(FILE *fp, const char *s)
{
	if (fputc('"', fp) == EOF)
		return -1;
	for (; *s; s++)
		if ((*s == '"' && fputc('"', fp) == EOF) || fputc(*s, fp) == EOF)
			return -1;
	return fputc('"', fp) == EOF ? -1 : 0;
}

int vr_csv_write(FILE *fp, const struct vr_variant *v, size_t k)
{
	if (fputs("variant,params,status,trades,sharpe,net_return\n", fp) == EOF)
		return -1;
	for (size_t i = 0; i < k; i++) {
		if (fprintf(fp, "%zu,", i + 1) < 0 || put_quoted(fp, v[i].params) < 0 ||
		    fprintf(fp, ",%s,", v[i].status) < 0)
			return -1;
		if (v[i].ran && fprintf(fp, "%zu,", v[i].trades) < 0)
			return -1;
		if (!v[i].ran && fputc(',', fp) == EOF)
			return -1;
		if (v[i].ran && isfinite(v[i].sharpe) && fprintf(fp, "%.10g", v[i].sharpe) < 0)
			return -1;
		if (fputc(',', fp) == EOF)
			return -1;
		if (v[i].ran && fprintf(fp, "%.10g", v[i].net_return) < 0)
			return -1;
		if (fputc('\n', fp) == EOF)
			return -1;
	}
	return 0;
}
