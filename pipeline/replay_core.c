/* replay_core.c - the honest replay: signals to fills, trades, costs, funding and equity. */
#include "replay_core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Smallest multiple of p that is >= a, for any sign of a. */
static int64_t ceil_multiple(int64_t a, int64_t p)
{
	int64_t q = a / p;

	if (q * p < a)
		q++;
	return q * p;
}

long rp_funding_instants(int64_t a, int64_t b)
{
	int64_t first;

	if (b <= a)
		return 0;
	first = ceil_multiple(a, RP_FUNDING_PERIOD_S);
	if (first >= b)
		return 0;
	return (long)((b - 1 - first) / RP_FUNDING_PERIOD_S + 1);
}

double rp_net_at(const struct rp_trade *t, double k)
{
	return t->gross - k * (t->fees + t->slippage + t->funding);
}

void rp_result_release(struct rp_result *r)
{
	if (!r)
		return;
	free(r->trades);
	free(r->eq_time_owned);
	free(r->eq_pos);
	free(r->eq_gross);
	free(r->eq_net);
	memset(r, 0, sizeof(*r));
}

/* Allocates the trade array and an equity curve of n_eq rows, with its own time column unless
 * times are borrowed. Returns 0 or -1. */
static int result_alloc(struct rp_result *r, size_t n_trades, size_t n_eq, const int64_t *times)
{
	r->trades = calloc(n_trades ? n_trades : 1, sizeof(*r->trades));
	if (!times)
		times = r->eq_time_owned = malloc((n_eq ? n_eq : 1) * sizeof(*r->eq_time_owned));
	r->eq_time = times;
	r->eq_pos = malloc(n_eq ? n_eq : 1);
	r->eq_gross = malloc((n_eq ? n_eq : 1) * sizeof(*r->eq_gross));
	r->eq_net = malloc((n_eq ? n_eq : 1) * sizeof(*r->eq_net));
	if (!r->trades || !r->eq_time || !r->eq_pos || !r->eq_gross || !r->eq_net)
		return -1;
	r->n_eq = n_eq;
	return 0;
}

/* Position held during bar j: the previous bar's signal, flat on bar 0. */
static int8_t position_at(const int8_t *signals, size_t j)
{
	return j == 0 ? 0 : signals[j - 1];
}

/* How many trades a signal series opens, so the array is sized once. */
static size_t count_opens(const int8_t *signals, size_t n)
{
	size_t k = 0;
	int8_t prev = 0;

	for (size_t j = 0; j < n; j++) {
		int8_t p = position_at(signals, j);
		if (p != prev && p != 0)
			k++;
		prev = p;
	}
	return k;
}

/* The open time of the bar after j, or j's close when j is the last bar. */
static int64_t bar_end(const struct sa_ohlcv *s, size_t j)
{
	if (j + 1 < s->n)
		return s->t[j + 1];
	return s->t[j] + (s->n >= 2 ? s->t[j] - s->t[j - 1] : 0);
}

/* Running state of one replay pass. */
struct pass {
	const struct sa_ohlcv *s;
	const struct rp_costs *c;
	struct rp_result *r;
	struct rp_trade *open;  /* the open trade, or NULL when flat */
	size_t entry_bar;
	double inv_entry_px;    /* 1 / open->entry_px: one division per trade, not per bar */
	int64_t next_funding;   /* the first funding instant not yet reached */
	double realised_gross, costs_paid;
};

/* One unit traded at the current fill: fee and slippage, booked to trade t and the curve. */
static void pay_unit(struct pass *ps, struct rp_trade *t)
{
	double fee = ps->c->fee_bps / 1e4, slip = ps->c->slippage_bps / 1e4;

	t->fees += fee;
	t->slippage += slip;
	ps->costs_paid += fee + slip;
	ps->r->units_traded += 1.0;
}

static void open_trade(struct pass *ps, int side, size_t j)
{
	struct rp_trade *t = &ps->r->trades[ps->r->n_trades++];

	t->entry = ps->s->t[j];
	t->side = side;
	t->entry_px = ps->s->open[j];
	ps->inv_entry_px = 1.0 / t->entry_px;
	ps->entry_bar = j;
	ps->open = t;
	pay_unit(ps, t);
}

/* Closes the open trade at px, time at, after holding it through bar last_bar inclusive. */
static void close_trade(struct pass *ps, double px, int64_t at, size_t last_bar)
{
	struct rp_trade *t = ps->open;
	struct rp_result *r = ps->r;

	pay_unit(ps, t);
	t->exit = at;
	t->exit_px = px;
	t->bars_held = (long)(last_bar + 1 - ps->entry_bar);
	t->gross = t->side * (px / t->entry_px - 1.0);
	t->net = t->gross - t->fees - t->slippage - t->funding;
	ps->realised_gross += t->gross;
	r->gross_return += t->gross;
	r->net_return += t->net;
	r->fees += t->fees;
	r->slippage += t->slippage;
	r->funding += t->funding;
	ps->open = NULL;
}

/* Funding for the instants in bar j, paid by the position p held during it. Bars are
 * contiguous and increasing, so the next instant only moves forward: no division per bar. */
static void pay_funding(struct pass *ps, int p, size_t j)
{
	int64_t end = bar_end(ps->s, j);
	long k = 0;
	double f;

	while (ps->next_funding < end) {
		ps->next_funding += RP_FUNDING_PERIOD_S;
		k++;
	}
	if (k == 0 || p == 0)
		return;
	f = p * (ps->c->funding_bps_8h / 1e4) * (double)k;
	ps->open->funding += f;
	ps->costs_paid += f;
}

/* Marks bar j's close into the equity curve. */
static void mark(struct pass *ps, int p, size_t j)
{
	struct rp_result *r = ps->r;
	double unreal = 0.0;

	if (ps->open)
		unreal = ps->open->side * (ps->s->close[j] * ps->inv_entry_px - 1.0);
	r->eq_pos[j] = (int8_t)p;
	r->eq_gross[j] = 1.0 + ps->realised_gross + unreal;
	r->eq_net[j] = r->eq_gross[j] - ps->costs_paid;
}

int rp_replay(const struct sa_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
	      struct rp_result *r)
{
	struct pass ps = { .s = s, .c = c, .r = r };
	int8_t prev = 0;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (result_alloc(r, count_opens(signals, s->n), s->n, s->t) < 0)
		goto out;
	if (s->n)
		ps.next_funding = ceil_multiple(s->t[0], RP_FUNDING_PERIOD_S);
	for (size_t j = 0; j < s->n; j++) {
		int8_t p = position_at(signals, j);
		if (p != prev && ps.open)
			close_trade(&ps, s->open[j], s->t[j], j - 1);
		if (p != prev && p != 0)
			open_trade(&ps, p, j);
		if (p != 0)
			r->bars_in_market++;
		pay_funding(&ps, p, j);
		if (j + 1 == s->n && ps.open) {
			/* Data ends with a position: close at the last close so it is counted. */
			r->open_at_end = true;
			ps.open->open_at_end = true;
			close_trade(&ps, s->close[j], bar_end(s, j), j);
		}
		mark(&ps, p, j);
		prev = p;
	}
	if (s->n >= 2)
		r->bar_seconds = (double)(s->t[s->n - 1] - s->t[0]) / (double)(s->n - 1);
	rc = 0;
out:
	if (rc < 0)
		rp_result_release(r);
	return rc;
}

/* First bar with t >= at (s->n when none). */
static size_t bar_at_or_after(const struct sa_ohlcv *s, int64_t at)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->t[mid] < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Bars whose open time falls in [entry, exit), when the data is known. */
static long bars_between(const struct sa_ohlcv *s, int64_t entry, int64_t exit)
{
	if (!s || s->n == 0)
		return -1;
	return (long)(bar_at_or_after(s, exit) - bar_at_or_after(s, entry));
}

/* Bars covered by at least one logged trade, so overlapping trades are not double counted. */
static size_t bars_covered(const struct sa_tradelog *log, const struct sa_ohlcv *s)
{
	size_t covered = 0;
	unsigned char *in = calloc(s->n ? s->n : 1, 1);

	if (!in)
		return 0;
	for (size_t i = 0; i < log->n; i++) {
		size_t a = bar_at_or_after(s, log->trades[i].entry);
		size_t b = bar_at_or_after(s, log->trades[i].exit);
		for (size_t j = a; j < b; j++)
			in[j] = 1;
	}
	for (size_t j = 0; j < s->n; j++)
		covered += in[j];
	free(in);
	return covered;
}

/* Orders trade indexes by exit time, then entry time, then log order (stable and total). */
static int by_exit(const void *a, const void *b, void *base)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct sa_trade *x = (const struct sa_trade *)base + i;
	const struct sa_trade *y = (const struct sa_trade *)base + j;

	if (x->exit != y->exit)
		return x->exit < y->exit ? -1 : 1;
	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	return i < j ? -1 : (i > j);
}

int rp_from_log(const struct sa_tradelog *log, const struct sa_ohlcv *s, struct rp_result *r)
{
	size_t *order = NULL;
	double cum = 0.0;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	order = malloc((log->n ? log->n : 1) * sizeof(*order));
	if (!order || result_alloc(r, log->n, log->n, NULL) < 0)
		goto out;
	for (size_t i = 0; i < log->n; i++) {
		const struct sa_trade *lt = &log->trades[i];
		struct rp_trade *t = &r->trades[i];
		t->entry = lt->entry;
		t->exit = lt->exit;
		t->side = lt->side;
		t->entry_px = t->exit_px = NAN;
		t->bars_held = bars_between(s, lt->entry, lt->exit);
		t->gross = t->net = lt->ret;
		r->gross_return += lt->ret;
		r->net_return += lt->ret;
		order[i] = i;
	}
	r->n_trades = log->n;
	qsort_r(order, log->n, sizeof(*order), by_exit, log->trades);
	for (size_t k = 0; k < log->n; k++) {
		const struct sa_trade *lt = &log->trades[order[k]];
		cum += lt->ret;
		r->eq_time_owned[k] = lt->exit;
		r->eq_pos[k] = (int8_t)lt->side;
		r->eq_gross[k] = r->eq_net[k] = 1.0 + cum;
	}
	r->units_traded = 2.0 * (double)log->n;
	if (s && s->n >= 2) {
		r->bars_in_market = bars_covered(log, s);
		r->bar_seconds = (double)(s->t[s->n - 1] - s->t[0]) / (double)(s->n - 1);
	}
	rc = 0;
out:
	free(order);
	if (rc < 0)
		rp_result_release(r);
	return rc;
}

/* The replay trade with this entry time and side (trades are in entry order), or NULL. */
static const struct rp_trade *find_entry(const struct rp_result *rp, int64_t entry, int side)
{
	size_t lo = 0, hi = rp->n_trades;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (rp->trades[mid].entry < entry)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < rp->n_trades && rp->trades[lo].entry == entry && rp->trades[lo].side == side)
		return &rp->trades[lo];
	return NULL;
}

void rp_reconcile(const struct sa_tradelog *log, const struct rp_result *replay,
		  struct rp_reconcile *out)
{
	double gap = 0.0;

	memset(out, 0, sizeof(*out));
	out->claimed_trades = log->n;
	out->replay_trades = replay->n_trades;
	for (size_t i = 0; i < log->n; i++) {
		const struct sa_trade *lt = &log->trades[i];
		const struct rp_trade *t = find_entry(replay, lt->entry, lt->side);
		out->claimed_total += lt->ret;
		if (t) {
			out->matched++;
			gap += lt->ret - t->net;
		}
	}
	out->replay_total = replay->net_return;
	out->claimed_mean = log->n ? out->claimed_total / (double)log->n : NAN;
	out->replay_mean = replay->n_trades ? replay->net_return / (double)replay->n_trades : NAN;
	out->total_difference = out->claimed_total - out->replay_total;
	out->matched_mean_gap = out->matched ? gap / (double)out->matched : NAN;
	out->consistent = out->matched == log->n && log->n == replay->n_trades &&
		fabs(out->total_difference) <= RP_RECONCILE_TOL * (double)(log->n ? log->n : 1);
}
