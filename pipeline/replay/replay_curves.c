/* replay_curves.c - reconcile.csv (replay_curves.h). */
#include "replay_curves.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "msg.h"
#include "replay_io.h"
#include "timeutil.h"

/* x as trades.csv prints it (RPL_DIGITS significant digits) and a reader parses it back: the
 * replayed curve is the one recomputable from trades.csv. */
static double as_written(double x)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%.*g", RPL_DIGITS, x == 0 ? 0.0 : x);
	return strtod(buf, NULL);
}

/* The replay's trades as a log of their net returns, in trades.csv's order. */
static int replay_as_log(const struct rp_result *r, struct da_tradelog *log)
{
	memset(log, 0, sizeof *log);
	log->trades = calloc(r->n_trades ? r->n_trades : 1, sizeof *log->trades);
	if (!log->trades)
		return -1;
	for (size_t i = 0; i < r->n_trades; i++) {
		struct da_trade *t = &log->trades[i];
		t->entry = r->trades[i].entry;
		t->exit = r->trades[i].exit;
		t->side = r->trades[i].side < 0 ? -1 : 1;
		t->ret = as_written(r->trades[i].net);
		t->line = i + 2;
	}
	log->n = r->n_trades;
	return 0;
}

static int64_t first_entry(const struct da_tradelog *a, const struct da_tradelog *b)
{
	int64_t t = INT64_MAX;

	for (size_t i = 0; i < a->n; i++)
		t = a->trades[i].entry < t ? a->trades[i].entry : t;
	for (size_t i = 0; i < b->n; i++)
		t = b->trades[i].entry < t ? b->trades[i].entry : t;
	return t == INT64_MAX ? 0 : t;
}

static void put_row(FILE *fp, const char *curve, int64_t t, double net)
{
	char buf[21];

	fprintf(fp, "%s,%s,", curve, sa_time_format(t, buf));
	if (isfinite(net))
		fprintf(fp, "%.17g", net == 0 ? 0.0 : net);
	fputc('\n', fp);
}

/* One curve: 1 at start, then the compounded equity at each exit time. */
static int curve_rows(FILE *fp, const char *curve, const struct da_tradelog *log, int64_t start)
{
	struct rp_result c;

	if (rpl_from_log(log, NULL, &c) < 0)
		return -1;
	put_row(fp, curve, start, 1.0);
	for (size_t k = 0; k < c.n_eq; k++)
		put_row(fp, curve, c.eq_time[k], c.eq_net[k]);
	rp_result_release(&c);
	return 0;
}

int rpl_write_reconcile(const char *path, bool reconciled, const struct da_tradelog *log,
		       const struct rp_result *r, char *err, size_t errlen)
{
	struct sa_atomic a = { 0 };
	struct da_tradelog rep = { 0 };
	int rc = -1;

	if (sa_atomic_open(&a, path, err, errlen) < 0)
		goto out;
	fputs("curve,time,net_equity\n", a.fp);
	if (reconciled) {
		int64_t start;
		if (!log || replay_as_log(r, &rep) < 0) {
			sa_fmt(err, errlen, "cannot write '%s': %s", path,
			       log ? "out of memory" : "no trade log to reconcile");
			goto out;
		}
		start = first_entry(log, &rep);
		if (curve_rows(a.fp, "claimed", log, start) < 0 ||
		    curve_rows(a.fp, "replayed", &rep, start) < 0) {
			sa_fmt(err, errlen, "cannot write '%s': out of memory", path);
			goto out;
		}
	}
	rc = sa_atomic_commit(&a, err, errlen);
out:
	sa_atomic_abort(&a);
	da_tradelog_release(&rep);
	return rc;
}
