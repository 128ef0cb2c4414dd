/* replay_core.c - the honest replay: signals to fills, trades, costs, funding and equity. */
#include "replay_core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* The size of a transparent huge page on x86-64 and arm64 Linux. */
#define HUGE_PAGE ((size_t)2 << 20)

/* Uninitialised memory for bytes, for the columns of a long series. A million-bar replay writes
 * some 20 MB of fresh memory, and touching it page by page (4 KiB, one kernel fault each, a few
 * microseconds on the bench host) cost more than the replay itself: about 10 of its 14 ms. So
 * blocks from half a megabyte up are rounded up to whole huge pages, aligned, and advised as
 * transparent huge pages: one fault per 2 MiB. The advice is only a hint; where it is refused
 * (THP disabled) the memory is ordinary and still valid. */
static void *column_alloc(size_t bytes)
{
	void *p;

	if (bytes < HUGE_PAGE / 4)
		return malloc(bytes ? bytes : 1);
	bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;  /* aligned_alloc wants a multiple */
	p = aligned_alloc(HUGE_PAGE, bytes);
	if (p)
		(void)madvise(p, bytes, MADV_HUGEPAGE);
	return p;
}

/* Allocates an equity curve of n_eq rows, with its own time column unless times are borrowed.
 * Returns 0 or -1. */
static int columns_alloc(struct rp_result *r, size_t n_eq, const int64_t *times)
{
	if (!times)
		times = r->eq_time_owned = column_alloc(n_eq * sizeof(*r->eq_time_owned));
	r->eq_time = times;
	r->eq_pos = column_alloc(n_eq);
	r->eq_gross = column_alloc(n_eq * sizeof(*r->eq_gross));
	r->eq_net = column_alloc(n_eq * sizeof(*r->eq_net));
	if (!r->eq_time || !r->eq_pos || !r->eq_gross || !r->eq_net)
		return -1;
	r->n_eq = n_eq;
	return 0;
}

/* The trade array, uninitialised: every trade is written whole when it is made. */
static int trades_alloc(struct rp_result *r, size_t n_trades)
{
	r->trades = column_alloc(n_trades * sizeof(*r->trades));
	return r->trades ? 0 : -1;
}

/* Positions held during each bar: the previous bar's signal, flat on bar 0. */
static void positions(int8_t *pos, const int8_t *signals, size_t n)
{
	if (n == 0)
		return;
	pos[0] = 0;
	memcpy(pos + 1, signals, n - 1);
}

/* The top bit of each byte of x that is non-zero, and nothing else. Per byte: adding 0x7f to
 * the low seven bits carries into the top bit unless they are all zero, OR-ing x adds a top
 * bit already set, and no carry crosses into the next byte (at most 0x7f + 0x7f). */
static uint64_t nonzero_bytes(uint64_t x)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;

	return (((x & low7) + low7) | x) & ~low7;
}

/* How many trades a position series opens, so the array is sized once: bars j whose position
 * is not flat and differs from bar j - 1's (pos[0] is flat, so bar 0 never opens one). It runs
 * over every bar, so eight at a time: a byte-wise compare of pos[j..j+8) with pos[j-1..j+7),
 * its top bits gathered into per-byte counters (each byte counts to at most 255, so they are
 * added up every 255 rounds). A bar at a time this took a tenth of the replay. */
static size_t count_opens(const int8_t *pos, size_t n)
{
	size_t k = 0, j = 1;

	while (j + 8 <= n) {
		uint64_t lanes = 0;
		for (int round = 0; round < 255 && j + 8 <= n; round++, j += 8) {
			uint64_t cur, before;
			memcpy(&cur, pos + j, 8);
			memcpy(&before, pos + j - 1, 8);
			lanes += (nonzero_bytes(cur ^ before) & nonzero_bytes(cur)) >> 7;
		}
		for (int b = 0; b < 8; b++)
			k += (lanes >> (8 * b)) & 0xff;
	}
	for (; j < n; j++)
		k += (pos[j] != pos[j - 1]) & (pos[j] != 0);
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
	struct rp_result *r;
	struct rp_trade *open;  /* the open trade, or NULL when flat */
	size_t entry_bar;
	double inv_entry_px;    /* 1 / open->entry_px: one division per trade, not per bar */
	double fee, slip;       /* fee_bps / 1e4 and slippage_bps / 1e4, per unit traded */
	double funding_rate;    /* funding_bps_8h / 1e4 */
	int64_t next_funding;   /* the first funding instant not yet reached */
	double realised_gross, costs_paid;
};

/* One unit traded at the current fill: fee and slippage, booked to trade t and the curve. */
static void pay_unit(struct pass *ps, struct rp_trade *t)
{
	t->fees += ps->fee;
	t->slippage += ps->slip;
	ps->costs_paid += ps->fee + ps->slip;
	ps->r->units_traded += 1.0;
}

static void open_trade(struct pass *ps, int side, size_t j)
{
	struct rp_trade *t = &ps->r->trades[ps->r->n_trades++];

	*t = (struct rp_trade){ .entry = ps->s->t[j], .side = side, .entry_px = ps->s->open[j] };
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

/* The fill at bar j's open that turns position prev into p. */
static void change_position(struct pass *ps, int prev, int p, size_t j)
{
	if (prev != 0)
		close_trade(ps, ps->s->open[j], ps->s->t[j], j - 1);
	if (p != 0)
		open_trade(ps, p, j);
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
	f = p * ps->funding_rate * (double)k;
	ps->open->funding += f;
	ps->costs_paid += f;
}

/* Marks bar j's close into the equity curve. */
static void mark(struct pass *ps, size_t j)
{
	struct rp_result *r = ps->r;
	double unreal = 0.0;

	if (ps->open)
		unreal = ps->open->side * (ps->s->close[j] * ps->inv_entry_px - 1.0);
	r->eq_gross[j] = 1.0 + ps->realised_gross + unreal;
	r->eq_net[j] = r->eq_gross[j] - ps->costs_paid;
}

/* How far ahead hold() prefetches the open column: four cache lines of doubles. */
#define OPEN_PREFETCH_BARS 32

/* Holds position p from bar a for as long as it stays p, stopping before bar lim (which must
 * be < s->n - 1, so every held bar ends at the next bar's open): pays the funding instants of
 * each bar and marks its close, exactly as pay_funding and mark would. Returns the first bar
 * not held. Every bar but the last goes through this loop, so it keeps its state in locals:
 * the stores into the equity columns could otherwise alias the doubles in *ps and force
 * reloads on every bar. The sums are added in the same order as bar by bar, so the results
 * are identical to the last bit. */
static size_t hold(struct pass *ps, int p, size_t a, size_t lim)
{
	const int64_t *t = ps->s->t;
	const double *open = ps->s->open, *close = ps->s->close;
	const int8_t *pos = ps->r->eq_pos;
	double *gross = ps->r->eq_gross, *net = ps->r->eq_net;
	/* Flat, side 0 and 1 / entry 0 make the open trade's term a signed zero, which leaves
	 * base unchanged: flat and held bars share the loop. */
	double side = p, inv = p ? ps->inv_entry_px : 0.0;
	double base = 1.0 + ps->realised_gross, costs = ps->costs_paid, funding = 0.0;
	double rate = p * ps->funding_rate;
	int64_t next = ps->next_funding;
	size_t j;

	for (j = a; j < lim && pos[j] == p; j++) {
		double g;
		if (t[j + 1] > next) {
			/* Bar j holds the instants next, next + period, ... before t[j + 1]. */
			int64_t k = (t[j + 1] - 1 - next) / RP_FUNDING_PERIOD_S + 1;
			next += k * RP_FUNDING_PERIOD_S;
			if (p != 0) {
				double f = rate * (double)k;
				funding += f;
				costs += f;
			}
		}
		/* The next fill is at some bar's open, the one column this loop does not read:
		 * fetched only at the fill, it missed the cache on nearly every trade (1.5 ms of
		 * a million-bar replay with 29k trades). Asking for it a few lines ahead hides it. */
		if (j + OPEN_PREFETCH_BARS < lim)
			__builtin_prefetch(&open[j + OPEN_PREFETCH_BARS]);
		g = base + side * (close[j] * inv - 1.0);
		gross[j] = g;
		net[j] = g - costs;
	}
	if (ps->open)
		ps->open->funding += funding;
	ps->costs_paid = costs;
	ps->next_funding = next;
	return j;
}

/* The last bar: no next open, so its funding runs to its close, and a position still open is
 * closed at that close so it is counted. */
static void last_bar(struct pass *ps, int prev, size_t j)
{
	struct rp_result *r = ps->r;
	int p = r->eq_pos[j];

	if (p != prev)
		change_position(ps, prev, p, j);
	if (p != 0)
		r->bars_in_market++;
	pay_funding(ps, p, j);
	if (ps->open) {
		r->open_at_end = true;
		ps->open->open_at_end = true;
		close_trade(ps, ps->s->close[j], bar_end(ps->s, j), j);
	}
	mark(ps, j);
}

int rp_replay(const struct sa_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
	      struct rp_result *r)
{
	struct pass ps = {
		.s = s, .r = r,
		.fee = c->fee_bps / 1e4, .slip = c->slippage_bps / 1e4,
		.funding_rate = c->funding_bps_8h / 1e4,
	};
	size_t n = s->n;
	int prev = 0;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (columns_alloc(r, n, s->t) < 0)
		goto out;
	positions(r->eq_pos, signals, n);
	if (trades_alloc(r, count_opens(r->eq_pos, n)) < 0)
		goto out;
	if (n) {
		ps.next_funding = ceil_multiple(s->t[0], RP_FUNDING_PERIOD_S);
		/* Run by run: a fill where the position changes, then the bars it is held. */
		for (size_t j = 0, next; j + 1 < n; j = next) {
			int p = r->eq_pos[j];
			if (p != prev)
				change_position(&ps, prev, p, j);
			next = hold(&ps, p, j, n - 1);
			if (p != 0)
				r->bars_in_market += next - j;
			prev = p;
		}
		last_bar(&ps, prev, n - 1);
	}
	if (n >= 2)
		r->bar_seconds = (double)(s->t[n - 1] - s->t[0]) / (double)(n - 1);
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
	if (!order || trades_alloc(r, log->n) < 0 || columns_alloc(r, log->n, NULL) < 0)
		goto out;
	for (size_t i = 0; i < log->n; i++) {
		const struct sa_trade *lt = &log->trades[i];
		r->trades[i] = (struct rp_trade){
			.entry = lt->entry, .exit = lt->exit, .side = lt->side,
			.entry_px = NAN, .exit_px = NAN,
			.bars_held = bars_between(s, lt->entry, lt->exit),
			.gross = lt->ret, .net = lt->ret,
		};
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
