/* replay_core.c - the honest replay: signals to fills, trades, costs, funding and equity. */
#include "replay_core.h"
#include "replay_alloc.h"
#include "replay_pass.h"
#include "signals.h"
#include "costs.h"

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

double *rp_trade_nets(const struct rp_result *r)
{
	double *net = malloc((r->n_trades ? r->n_trades : 1) * sizeof *net);

	for (size_t i = 0; net && i < r->n_trades; i++)
		net[i] = r->trades[i].net;
	return net;
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

int rp_columns_alloc(struct rp_result *r, size_t n_eq, const int64_t *times)
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

int rp_trades_alloc(struct rp_result *r, size_t n_trades)
{
	r->trades = column_alloc(n_trades * sizeof(*r->trades));
	return r->trades ? 0 : -1;
}

/* Positions held during each bar: the previous bar's signal's position (da_position), flat on
 * bar 0. Whether any signal carries events (a framework run's) is returned. */
static bool positions(int8_t *pos, const int8_t *signals, size_t n)
{
	bool coded = false;

	if (n == 0)
		return false;
	pos[0] = 0;
	for (size_t j = 1; j < n; j++) {
		pos[j] = (int8_t)da_position(signals[j - 1]);
		coded |= signals[j - 1] > 1;
	}
	return coded;
}

/* The entry events among the signals of bars 0 .. n - 2 (the last bar's opens nothing): each
 * may open one trade more than the positions' changes, a re-entry after an exit inside a bar. */
static size_t count_entries(const int8_t *signals, size_t n)
{
	size_t k = 0;

	for (size_t j = 0; j + 1 < n; j++)
		k += signals[j] > 1 && (da_events(signals[j]) & (DA_EV_ENTER_LONG | DA_EV_ENTER_SHORT));
	return k;
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
static int64_t bar_end(const struct da_ohlcv *s, size_t j)
{
	if (j + 1 < s->n)
		return s->t[j + 1];
	return s->t[j] + (s->n >= 2 ? s->t[j] - s->t[j - 1] : 0);
}

/* One unit traded at the current fill: fee and slippage, booked to trade t and the curve. */
static void pay_unit(struct rp_pass *ps, struct rp_trade *t)
{
	t->fees += ps->fee;
	t->slippage += ps->slip;
	ps->trade_costs += ps->fee + ps->slip;
	ps->r->units_traded += 1.0;
}

/* The open trade's stop and trailing stop at its entry (the target is per bar: roi_target). */
static void arm_exits(struct rp_pass *ps)
{
	const struct rp_exits *x = ps->x;
	double e = ps->open->entry_px;
	int side = ps->open->side;

	ps->stop = x->stop_loss > 0 ? e * (1.0 - side * x->stop_loss) : -side * INFINITY;
	ps->stop_trailed = false;
	ps->trail_stop = x->trail > 0 ? e * (1.0 - side * x->trail) : -side * INFINITY;
}

static void open_trade(struct rp_pass *ps, int side, size_t j)
{
	struct rp_trade *t = &ps->r->trades[ps->r->n_trades++];

	*t = (struct rp_trade){ .entry = ps->s->t[j], .side = side, .entry_px = ps->s->open[j] };
	ps->inv_entry_px = 1.0 / t->entry_px;
	ps->entry_bar = j;
	ps->open = t;
	ps->net_entry = ps->eq_net;
	ps->gross_entry = ps->eq_gross;
	ps->trade_costs = 0.0;
	pay_unit(ps, t);
	if (ps->x)
		arm_exits(ps);
}

/* Closes the open trade at px, time at, after holding it through bar last_bar inclusive. Its
 * net return applies to the equity it was entered with; equity at or below zero is ruin. */
void rp_pass_close(struct rp_pass *ps, double px, int64_t at, size_t last_bar,
			enum rp_exit_reason why)
{
	struct rp_trade *t = ps->open;
	struct rp_result *r = ps->r;

	pay_unit(ps, t);
	t->exit_reason = (unsigned char)why;
	r->exits[why]++;
	t->exit = at;
	t->exit_px = px;
	t->bars_held = (long)(last_bar + 1 - ps->entry_bar);
	t->gross = t->side * (px / t->entry_px - 1.0);
	t->net = t->gross - t->fees - t->slippage - t->funding - t->borrow;
	ps->eq_gross = ps->gross_entry * (1.0 + t->gross);
	ps->eq_net = ps->net_entry * (1.0 + t->net);
	r->sum_gross_return += t->gross;
	r->sum_net_return += t->net;
	r->fees += t->fees;
	r->slippage += t->slippage;
	r->funding += t->funding;
	r->borrow += t->borrow;
	ps->open = NULL;
	ps->trade_costs = 0.0;
	if (!(ps->eq_net > 0)) {
		ps->eq_net = 0.0;
		ps->ruined = true;
		r->ruined = true;
		r->ruin_time = at;
	}
}

/* The fill at bar j's open that turns position prev into p. */
static void change_position(struct rp_pass *ps, int prev, int p, size_t j)
{
	if (prev != 0)
		rp_pass_close(ps, ps->s->open[j], ps->s->t[j], j - 1, RP_EXIT_SIGNAL);
	if (p != 0 && !ps->ruined)
		open_trade(ps, p, j);
}

/* Funding per instant paid by position p (negative: received). */
static double funding_rate(const struct rp_pass *ps, int p)
{
	return p > 0 ? ps->funding_long : p < 0 ? ps->funding_short : 0.0;
}

/* A night's rollover paid by position p held in bar j (negative: earned): the data's swap
 * column that bar when it has them, else the knob's. */
static double swap_night(const struct rp_pass *ps, int p, size_t j)
{
	const double *col = p > 0 ? ps->swap_col_long : ps->swap_col_short;

	if (p == 0)
		return 0.0;
	return col ? col[j] * ps->swap_col_k : p > 0 ? ps->swap_long : ps->swap_short;
}

/* Funding for the instants in bar j, and a short's borrow for its time, paid by the position p
 * held during it. Bars are contiguous and increasing, so the next instant only moves forward:
 * no division per bar. */
static void pay_funding(struct rp_pass *ps, int p, size_t j)
{
	int64_t end = bar_end(ps->s, j);
	long k = 0;
	double f;

	while (ps->next_funding < end) {
		ps->next_funding += RP_FUNDING_PERIOD_S;
		k++;
	}
	if (p < 0) {
		double b = ps->borrow_per_s * (double)(end - ps->s->t[j]);
		ps->open->borrow += b;
		ps->trade_costs += b;
	}
	if (p != 0 && swap_night(ps, p, j) != 0) {
		double w = swap_night(ps, p, j) * rp_rollover_nights(ps->s->t[j], end);
		ps->open->funding += w;
		ps->trade_costs += w;
	}
	if (k == 0 || p == 0)
		return;
	f = funding_rate(ps, p) * (double)k;
	ps->open->funding += f;
	ps->trade_costs += f;
}

/* Marks bar j's close into the equity curve: the closed equity, or the equity the open trade
 * was entered with grown by its return so far (less its costs so far, for the net curve). */
static void mark(struct rp_pass *ps, size_t j)
{
	struct rp_result *r = ps->r;

	if (ps->open) {
		double g = ps->open->side * (ps->s->close[j] * ps->inv_entry_px - 1.0);
		r->eq_gross[j] = ps->gross_entry * (1.0 + g);
		r->eq_net[j] = ps->net_entry * (1.0 + g - ps->trade_costs);
	} else {
		r->eq_gross[j] = ps->eq_gross;
		r->eq_net[j] = ps->eq_net;
	}
}

/* Bar j's close marked the open trade's equity at or below zero: the account is ruined, so
 * the trade is closed there (paying its exit costs) and the bar shows what is left, nothing. */
static void liquidate(struct rp_pass *ps, size_t j)
{
	rp_pass_close(ps, ps->s->close[j], bar_end(ps->s, j), j, RP_EXIT_RUIN);
	ps->eq_net = 0.0;
	ps->ruined = ps->r->ruined = true;
	ps->r->ruin_time = bar_end(ps->s, j);
	ps->r->eq_gross[j] = ps->eq_gross;
	ps->r->eq_net[j] = 0.0;
}

/* After ruin nothing trades: bars from a on are flat, at the equity left. */
void rp_pass_flat_from(struct rp_pass *ps, size_t a)
{
	struct rp_result *r = ps->r;

	for (size_t j = a; j < ps->s->n; j++) {
		r->eq_pos[j] = 0;
		r->eq_gross[j] = ps->eq_gross;
		r->eq_net[j] = ps->eq_net;
	}
}

/* How far ahead hold() prefetches the open column: four cache lines of doubles. */
#define OPEN_PREFETCH_BARS 32

/* Holds position p from bar a for as long as it stays p, stopping before bar lim (which must
 * be < s->n - 1, so every held bar ends at the next bar's open): pays the funding instants of
 * each bar (and a short's borrow for its time) and marks its close, exactly as pay_funding and
 * mark would. Returns the first bar
 * not held; when a close marks the net equity at or below zero, the trade is liquidated there
 * (liquidate) and the bar after it is returned. Every bar but the last goes through this loop, so it keeps its state in locals:
 * the stores into the equity columns could otherwise alias the doubles in *ps and force
 * reloads on every bar. The sums are added in the same order as bar by bar, so the results
 * are identical to the last bit. */
static size_t hold(struct rp_pass *ps, int p, size_t a, size_t lim)
{
	const int64_t *t = ps->s->t;
	const double *open = ps->s->open, *close = ps->s->close;
	const int8_t *pos = ps->r->eq_pos;
	double *gross = ps->r->eq_gross, *net = ps->r->eq_net;
	/* Flat, side 0 and 1 / entry 0 make the open trade's term a signed zero, which leaves
	 * the equity unchanged: flat and held bars share the loop. */
	double side = p, inv = p ? ps->inv_entry_px : 0.0;
	double nbase = p ? ps->net_entry : ps->eq_net, gbase = p ? ps->gross_entry : ps->eq_gross;
	double costs = p ? ps->trade_costs : 0.0, funding = 0.0, borrow = 0.0;
	double rate = funding_rate(ps, p), borrow_rate = p < 0 ? ps->borrow_per_s : 0.0;
	double swap = p > 0 ? ps->swap_long : p < 0 ? ps->swap_short : 0.0;
	const double *swap_col = p > 0 ? ps->swap_col_long : p < 0 ? ps->swap_col_short : NULL;
	int64_t next = ps->next_funding;
	bool ruin = false;
	size_t j;

	for (j = a; j < lim && pos[j] == p; j++) {
		double g, x;
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
		if (borrow_rate > 0) {
			double b = borrow_rate * (double)(t[j + 1] - t[j]);
			borrow += b;
			costs += b;
		}
		if (swap_col ? swap_col[j] != 0 : swap != 0) {
			double w = (swap_col ? swap_col[j] * ps->swap_col_k : swap) *
				   rp_rollover_nights(t[j], t[j + 1]);
			funding += w;
			costs += w;
		}
		/* The next fill is at some bar's open, the one column this loop does not read:
		 * fetched only at the fill, it missed the cache on nearly every trade (1.5 ms of
		 * a million-bar replay with 29k trades). Asking for it a few lines ahead hides it. */
		if (j + OPEN_PREFETCH_BARS < lim)
			__builtin_prefetch(&open[j + OPEN_PREFETCH_BARS]);
		g = side * (close[j] * inv - 1.0);
		gross[j] = gbase * (1.0 + g);
		x = nbase * (1.0 + g - costs);
		net[j] = x;
		if (!(x > 0)) {
			ruin = true;
			break;
		}
	}
	if (ps->open) {
		ps->open->funding += funding;
		ps->open->borrow += borrow;
		ps->trade_costs = costs;
	}
	ps->next_funding = next;
	if (ruin) {
		liquidate(ps, j);
		j++;
	}
	return j;
}

/* The fill at bar j's open that turns position prev into p, if they differ. Returns false when
 * it ruined the account (bars from j on are then flat). */
bool rp_pass_fill(struct rp_pass *ps, int prev, int p, size_t j)
{
	if (p != prev)
		change_position(ps, prev, p, j);
	if (ps->ruined)
		rp_pass_flat_from(ps, j);
	return !ps->ruined;
}

/* The last bar: no next open, so its funding runs to its close, and a position still open is
 * closed at that close so it is counted. */
static void last_bar(struct rp_pass *ps, int prev, size_t j)
{
	struct rp_result *r = ps->r;
	int p = r->eq_pos[j];

	if (!rp_pass_fill(ps, prev, p, j))
		return;
	if (p != 0)
		r->bars_in_market++;
	pay_funding(ps, p, j);
	if (ps->open) {
		r->open_at_end = true;
		ps->open->open_at_end = true;
		rp_pass_close(ps, ps->s->close[j], bar_end(ps->s, j), j, RP_EXIT_END);
	}
	mark(ps, j);
}


/* The price whose profit (rp_pass_profit) is ret: where an ROI level ret is reached. */
static double roi_trigger(const struct rp_pass *ps, double ret)
{
	double e = ps->open->entry_px, f = ps->rule_fee;

	if (ps->open->side > 0)
		return e * (1.0 + ret) * (1.0 + f) / (1.0 - f);
	return e * (1.0 - ret) * (1.0 - f) / (1.0 + f);
}

/* freqtrade's close rate of an ROI exit at level ret inside bar j (_get_close_rate_for_roi):
 * the open leg's fee-paid value plus ret of the entry, over the close leg's fee, within the
 * bar's low and high. At a zero fee it is roi_trigger's price. */
static double roi_fill(const struct rp_pass *ps, double ret, size_t j)
{
	double e = ps->open->entry_px, f = ps->rule_fee, px;

	if (ps->open->side > 0)
		px = e * (1.0 + f + ret) / (1.0 - f);
	else
		px = e * (1.0 - f - ret) / (1.0 + f);
	return fmin(fmax(px, ps->s->low[j]), ps->s->high[j]);
}

/* The trailing stop after the bar is known to have reached price p: p * (1 - d) for a long
 * (p * (1 + d) a short), d by p's gain over the entry (rp_pass_profit, struct rp_exits), never
 * loosened. */
static void trail_to(struct rp_pass *ps, double p)
{
	const struct rp_exits *x = ps->x;
	int side = ps->open->side;
	double gain = rp_pass_profit(ps, p), d = x->trail, level;

	if (!(x->trail > 0) || (x->trail_only_offset && gain < x->trail_offset))
		return;
	if (x->trail_positive > 0 && gain > x->trail_offset)
		d = x->trail_positive;
	level = p * (1.0 - side * d);
	if (side * (level - ps->trail_stop) > 0)
		ps->trail_stop = level;
}

/* The ROI table's return for a trade held minutes at a bar's open: the step with the largest
 * minutes at or below it; NAN when no step applies yet. */
static double roi_at(const struct rp_exits *x, double minutes)
{
	double ret = NAN;

	for (size_t k = 0; k < x->n_roi && x->roi[k].minutes <= minutes; k++)
		ret = x->roi[k].ret;
	return ret;
}

/* Whether the ROI table is set aside in bar j: freqtrade's ignore_roi_if_entry_signal, when the
 * candle before set the held side's entry signal (rp_exits). */
static bool roi_ignored(const struct rp_pass *ps, size_t j)
{
	int ev;

	if (!ps->x->ignore_roi_if_entry_signal || !ps->coded || j == 0)
		return false;
	ev = da_events(ps->sig[j - 1]);
	if (ps->open->side > 0)
		return ev & (DA_EV_ENTER_LONG | DA_EV_LONG_SIGNAL);
	return ev & DA_EV_ENTER_SHORT;
}

/* The open trade's target in bar j: the nearer of the take-profit and the price where the ROI
 * level at the minutes held at the bar's open is reached (roi_trigger; the take-profit when
 * they are equal), and why; *ret the ROI level (NAN when none applies). */
static double target_level(const struct rp_pass *ps, size_t j, enum rp_exit_reason *why, double *ret)
{
	const struct rp_trade *t = ps->open;
	int side = t->side;
	double tp = ps->x->take_profit > 0 ? t->entry_px * (1.0 + side * ps->x->take_profit)
					   : side * INFINITY;
	double held = (double)((ps->s->t[j] - t->entry) / 60);
	double roi;

	*ret = roi_ignored(ps, j) ? NAN : roi_at(ps->x, held);
	roi = isnan(*ret) ? side * INFINITY : roi_trigger(ps, *ret);
	*why = side * (roi - tp) < 0 ? RP_EXIT_ROI : RP_EXIT_TAKE_PROFIT;
	return *why == RP_EXIT_ROI ? roi : tp;
}

/* Whether the open trade exits inside bar j, in the order replay_core.h gives: *px the fill
 * (the level's price, or the open when the open is through it), *why, *at_open. Moves the
 * trailing stop with the open first and, when the trade is still held, with the bar's best
 * price last. */
static bool exit_in_bar(struct rp_pass *ps, size_t j, double *px, enum rp_exit_reason *why,
			bool *at_open)
{
	const struct da_ohlcv *s = ps->s;
	int side = ps->open->side;
	double o = s->open[j], worst = side > 0 ? s->low[j] : s->high[j];
	double best = side > 0 ? s->high[j] : s->low[j];
	enum rp_exit_reason stop_why, target_why;
	double stop, target, ret;

	trail_to(ps, o);
	stop = rp_pass_stop_level(ps, &stop_why);
	target = target_level(ps, j, &target_why, &ret);
	*at_open = true;
	if (side * (o - stop) <= 0 || side * (o - target) > 0) {
		*px = o;
		*why = side * (o - stop) <= 0 ? stop_why : target_why;
		return true;
	}
	*at_open = false;
	if (ps->calls && side * (worst - stop) > 0) {
		rp_pass_custom_stop(ps, j);  /* freqtrade asks it only while the stop is not yet reached */
		stop = rp_pass_stop_level(ps, &stop_why);
	}
	if (ps->x->trail_best_first && side * (worst - stop) > 0) {
		/* freqtrade's order: the stop follows the bar's best price, then meets its worst */
		trail_to(ps, best);
		stop = rp_pass_stop_level(ps, &stop_why);
	}
	if (side * (worst - stop) <= 0 || side * (best - target) > 0) {
		bool stopped = side * (worst - stop) <= 0;

		if (stopped && ps->x->trail_best_first && stop_why == RP_EXIT_TRAILING_STOP &&
		    side * (best - target) > 0)
			stopped = false;  /* freqtrade checks ROI before a trailing stop */
		*why = stopped ? stop_why : target_why;
		*px = stopped ? stop : *why == RP_EXIT_ROI ? roi_fill(ps, ret, j) : target;
		return true;
	}
	trail_to(ps, best);
	return false;
}

/* Bar j of a replay with exits, after its open fill: the open trade's exits, the bar's funding
 * and borrow, its mark and, on the last bar, the close of what is still open. Returns false
 * once the account is ruined (the bars after j are then flat). */
bool rp_pass_exits_bar(struct rp_pass *ps, size_t j)
{
	struct rp_result *r = ps->r;
	const struct da_ohlcv *s = ps->s;
	int p = ps->open ? ps->open->side : 0;
	enum rp_exit_reason why = RP_EXIT_UNKNOWN;
	double px = 0;
	bool at_open = false, exits = p && exit_in_bar(ps, j, &px, &why, &at_open);

	r->eq_pos[j] = (int8_t)(exits && at_open ? 0 : p);
	if (exits && at_open) {
		rp_pass_close(ps, px, s->t[j], j - 1, why);
		p = 0;
		if (ps->ruined) {
			rp_pass_flat_from(ps, j);
			return false;
		}
	}
	if (p)
		r->bars_in_market++;
	pay_funding(ps, p, j);
	if (exits && !at_open) {
		rp_pass_close(ps, px, bar_end(s, j), j, why);
	} else if (ps->open && j + 1 == s->n) {
		r->open_at_end = true;
		ps->open->open_at_end = true;
		rp_pass_close(ps, s->close[j], bar_end(s, j), j, RP_EXIT_END);
	}
	mark(ps, j);
	if (ps->open && !(r->eq_net[j] > 0))
		liquidate(ps, j);
	return !ps->ruined;
}

/* The position bar j's open fill leaves, held the side held after the bar before: the
 * signal's side where it changed (after an exit inside a bar, flat until it changes). */
static int wanted(const int8_t *signals, size_t j, int held)
{
	int want = j ? da_position(signals[j - 1]) : 0;
	int before = j > 1 ? da_position(signals[j - 2]) : 0;

	return want != before ? want : held;
}

/* Whether freqtrade's exit_profit_only keeps the open trade through an exit signal that would
 * fill at bar j's open: its profit there is not above exit_profit_offset (rp_exits). */
static bool exit_kept(const struct rp_pass *ps, size_t j)
{
	if (!ps->x->exit_profit_only)
		return false;
	return !(rp_pass_profit(ps, ps->s->open[j]) > ps->x->exit_profit_offset);
}

/* The same for a framework run's signals, by their events as freqtrade's backtest takes the
 * bar before's signals: flat, its uncancelled entry of either side, but on the last bar (n - 1:
 * freqtrade opens nothing on its last candle); held, that side's effective exit, unless
 * exit_profit_only keeps the trade (exit_kept). Without exits
 * inside a bar this is the signals' own position; after one, freqtrade enters again on the next
 * candle whose entry signal is set. */
int rp_pass_wanted(const struct rp_pass *ps, size_t j, int held)
{
	int ev = j ? da_events(ps->sig[j - 1]) : 0;

	if (held == 0 && j + 1 == ps->s->n)
		return 0;
	if (held == 0)
		return ev & DA_EV_ENTER_LONG ? 1 : ev & DA_EV_ENTER_SHORT ? -1 : 0;
	if (ev & (held > 0 ? DA_EV_EXIT_LONG : DA_EV_EXIT_SHORT))
		return exit_kept(ps, j) ? held : 0;
	return held;
}

/* The replay with exits, bar by bar: a fill at the open where wanted() (rp_pass_wanted() for
 * signals with events) says, then the bar's exits. */
static void run_exits(struct rp_pass *ps)
{
	size_t n = ps->s->n;

	for (size_t j = 0; j < n; j++) {
		int held = ps->open ? ps->open->side : 0;
		int want = ps->coded ? rp_pass_wanted(ps, j, held) : wanted(ps->sig, j, held);

		if (ps->calls && j != ps->held_at)
			want = rp_pass_confirmed(ps, j, held, want);
		if (!rp_pass_fill(ps, held, want, j))
			return;
		if (j == ps->held_at) {
			rp_pass_take_held(ps, j);
			return;
		}
		if (ps->calls && !rp_pass_calls_at_open(ps, j))
			return;
		if (!rp_pass_exits_bar(ps, j)) {
			rp_pass_flat_from(ps, j + 1);
			return;
		}
	}
}

/* The replay without exits, run by run: a fill where the position changes, then the bars it
 * is held (hold), the last bar apart. */
static void run_signals(struct rp_pass *ps)
{
	struct rp_result *r = ps->r;
	size_t n = ps->s->n;
	int prev = 0;

	for (size_t j = 0, next; j + 1 < n; j = next) {
		int p = r->eq_pos[j];
		if (!rp_pass_fill(ps, prev, p, j))
			return;
		next = hold(ps, p, j, n - 1);
		if (p != 0)
			r->bars_in_market += next - j;
		if (ps->ruined) {
			rp_pass_flat_from(ps, next);
			return;
		}
		prev = p;
	}
	last_bar(ps, prev, n - 1);
}

/* A pass's state for a replay of s with costs c, into r: its columns allocated (and its trades,
 * trades of them). exits forces the pass with exits, declared or not. Returns 0, or -1 when
 * memory ran out (r released). */
int rp_pass_init(struct rp_pass *ps, const struct da_ohlcv *s, const int8_t *signals,
		     const struct rp_costs *c, struct rp_result *r, bool exits)
{
	static const struct rp_exits none;
	enum rp_market market = rp_market_of(c, s);
	const struct rp_exits *x = rp_exits_any(c->exits) ? c->exits :
				   c->calls || exits ? (c->exits ? c->exits : &none) : NULL;
	double fee = rp_fee_bps(c, market) / 1e4;
	double rules_fee = c->rules_fee_set ? c->rules_fee_bps[market] / 1e4 : fee;
	double fund = market == RP_MARKET_PERP ? c->funding_bps_8h / 1e4 : 0.0;
	bool borrows = market == RP_MARKET_STOCK || market == RP_MARKET_SPOT;

	*ps = (struct rp_pass){
		.s = s, .r = r,
		.fee = fee, .slip = rp_slippage_bps(c, market) / 1e4,
		.funding_long = c->funding_income ? fund : fabs(fund),
		.funding_short = c->funding_income ? -fund : fabs(fund),
		.borrow_per_s = borrows ? c->borrow_bps_year / 1e4 / RP_YEAR_S : 0.0,
		.swap_long = market == RP_MARKET_FX ? rp_rollover_rate(c, 1) : 0.0,
		.swap_short = market == RP_MARKET_FX ? rp_rollover_rate(c, -1) : 0.0,
		.swap_col_long = market == RP_MARKET_FX ? s->swap_long : NULL,
		.swap_col_short = market == RP_MARKET_FX ? s->swap_short : NULL,
		.swap_col_k = rp_swap_column_scale(c),
		.eq_net = 1.0, .eq_gross = 1.0,
		.x = x, .rule_fee = x && x->fee_in_profit ? rules_fee : 0.0,
		.sig = signals,
		.calls = c->calls, .held_at = SIZE_MAX,
	};
	memset(r, 0, sizeof(*r));
	r->market = market;
	if (rp_columns_alloc(r, s->n, s->t) < 0)
		return -1;
	if (s->n)
		ps->next_funding = ceil_multiple(s->t[0], RP_FUNDING_PERIOD_S);
	return 0;
}

/* A replay pass, stopped at bar held_at with the trade held there in *h when held_at is a bar
 * (rp_held_at). */
static int replay_pass(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
		       struct rp_result *r, size_t held_at, struct rp_held *h)
{
	struct rp_pass ps;
	size_t n = s->n;

	if (rp_pass_init(&ps, s, signals, c, r, h != NULL) < 0)
		return -1;
	ps.held_at = held_at;
	ps.held = h;
	ps.coded = positions(r->eq_pos, signals, n);
	if (rp_trades_alloc(r, count_opens(r->eq_pos, n) + (ps.x && ps.coded ? count_entries(signals, n) : 0)) < 0) {
		rp_result_release(r);
		return -1;
	}
	if (n) {
		if (ps.x)
			run_exits(&ps);
		else
			run_signals(&ps);
	}
	r->gross_return = ps.eq_gross - 1.0;
	r->net_return = ps.eq_net - 1.0;
	if (n >= 2)
		r->bar_seconds = (double)(s->t[n - 1] - s->t[0]) / (double)(n - 1);
	return 0;
}

int rp_replay(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
	      struct rp_result *r)
{
	return replay_pass(s, signals, c, r, SIZE_MAX, NULL);
}

int rp_held_at(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c, size_t j,
	       struct rp_held *h)
{
	struct rp_result r;
	int rc;

	struct rp_costs cc = *c;
	struct da_ohlcv view = *s;

	*h = (struct rp_held){ 0 };
	if (j >= s->n)
		return -1;
	/* The bars after j + 1 take no part (the pass stops at j, and j + 1 is there only so that j
	 * is not the last bar, on which nothing opens): the view's columns are a prefix, and the
	 * market is the whole series' as the replay's is. */
	cc.market = rp_market_of(c, s);
	view.n = j + 2 < s->n ? j + 2 : s->n;
	rc = replay_pass(&view, signals, &cc, &r, j, h);
	rp_result_release(&r);
	return rc;
}
