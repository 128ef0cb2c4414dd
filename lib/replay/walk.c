/* walk.c - the callbacks' answers applied to the replay's open trade (rp_calls), the trade the
 * replay holds on a bar as the host sends it to the live run (rp_held_at), and the walk that
 * gives it bar after bar (rp_walk). */
#include "replay_pass.h"
#include "replay_alloc.h"
#include "signals.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* rp_walk: the pass, and the bar whose open's fills are done and whose callbacks and exits wait
 * for its answers (pending, SIZE_MAX none), every bar before it replayed whole. */
struct rp_walk {
	struct rp_pass ps;
	struct rp_result r;
	size_t next;     /* the first bar not filled */
	bool pending;    /* bar next - 1 is filled, its callbacks and exits not yet run */
	bool done;       /* ruined: every bar after is flat */
	bool entered;    /* the pending bar's fill entered a trade: confirm_trade_entry may refuse it */
	struct rp_pass before;     /* the pass and the result just before that entry, to go back */
	struct rp_result before_r;
};

/* custom_stoploss's answer on bar j (rp_calls): the stop moved to the bar's best price times
 * 1 - side * |ratio|, when that is tighter (Trade.adjust_stop_loss never loosens it). */
void rp_pass_custom_stop(struct rp_pass *ps, size_t j)
{
	int side = ps->open->side;
	double r = ps->calls && ps->calls->stop ? ps->calls->stop[j] : NAN;
	double best = side > 0 ? ps->s->high[j] : ps->s->low[j], level;

	if (!isfinite(r) || r == 0.0)
		return;
	level = best * (1.0 - side * fabs(r));
	if (side * (level - ps->stop) > 0) {
		ps->stop = level;
		ps->stop_trailed = true;
	}
}

int rp_pass_confirmed(const struct rp_pass *ps, size_t j, int held, int want)
{
	const uint8_t *refused = ps->calls ? ps->calls->refused : NULL;

	return refused && refused[j] && want != held && want != 0 ? 0 : want;
}

/* The side and entry bar the callbacks' answers on bar j were asked for (rp_calls), checked
 * against the trade held: the first bar where they differ is recorded. */
static void check_asked(struct rp_pass *ps, size_t j)
{
	const struct rp_calls *k = ps->calls;
	int side = ps->open ? ps->open->side : 0;
	int asked = k->refused && k->refused[j] ? 0 : k->side ? k->side[j] : side;
	bool same = asked == side &&
		    (!side || !k->entry || k->entry[j] == (uint32_t)ps->entry_bar);

	if (!same && !ps->r->calls_mismatch) {
		ps->r->calls_mismatch = true;
		ps->r->calls_mismatch_bar = j;
	}
}

/* Bar j's callbacks after its open's fills (rp_calls): custom_exit's answer closes the trade held
 * at the open. Returns false once the account is ruined (the bars from j on are then flat). */
bool rp_pass_calls_at_open(struct rp_pass *ps, size_t j)
{
	const struct rp_calls *k = ps->calls;

	check_asked(ps, j);
	if (!ps->open || !k->exit || !k->exit[j])
		return true;
	rp_pass_close(ps, ps->s->open[j], ps->s->t[j], j - 1, RP_EXIT_CUSTOM);
	if (ps->ruined)
		rp_pass_flat_from(ps, j);
	return !ps->ruined;
}

/* rp_held_at's answer: the trade held on bar j after its open's fills. */
void rp_pass_take_held(struct rp_pass *ps, size_t j)
{
	const struct da_ohlcv *s = ps->s;
	struct rp_held *h = ps->held;
	enum rp_exit_reason why;
	int side, ev;

	*h = (struct rp_held){ .rate = s->open[j] };
	if (!ps->open)
		return;
	side = h->side = ps->open->side;
	h->entry_bar = ps->entry_bar;
	h->entry = ps->open->entry;
	h->entry_px = ps->open->entry_px;
	h->stop = rp_pass_stop_level(ps, &why);
	h->profit = rp_pass_profit(ps, s->open[j]);
	h->bound = side > 0 ? s->high[j] : s->low[j];
	h->bound_profit = rp_pass_profit(ps, h->bound);
	ev = j && ps->coded ? da_events(ps->sig[j - 1]) : 0;
	h->ask_exit = !(ev & (side > 0 ? DA_EV_EXIT_LONG : DA_EV_EXIT_SHORT));
	h->ask_stop = side * ((side > 0 ? s->low[j] : s->high[j]) - h->stop) > 0;
	h->ask_entry = ps->entry_bar == j;
}

struct rp_walk *rp_walk_new(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c)
{
	struct rp_walk *w = calloc(1, sizeof *w);

	if (!w)
		return NULL;
	if (rp_pass_init(&w->ps, s, signals, c, &w->r, true) < 0 ||
	    rp_trades_alloc(&w->r, s->n + 1) < 0) {
		rp_walk_free(w);
		return NULL;
	}
	w->ps.coded = true;  /* a framework run's values, whose events the walk follows */
	return w;
}

/* Bar b's open fill from the side held, in two steps when it flips (the close, then the entry,
 * as rp_pass_fill makes them), the pass kept just before an entry so that a refusal of it
 * (rp_calls.refused, known only once the run answered for bar b) can take it back. Returns false
 * once ruined. */
static bool walk_fill(struct rp_walk *w, size_t b, int held)
{
	struct rp_pass *ps = &w->ps;
	int want = rp_pass_wanted(ps, b, held);

	w->entered = false;
	if (want == held || want == 0)
		return rp_pass_fill(ps, held, want, b);
	if (held != 0 && !rp_pass_fill(ps, held, 0, b))
		return false;
	w->before = *ps;
	w->before_r = w->r;
	w->entered = true;
	return rp_pass_fill(ps, 0, want, b);
}

/* Finishes the pending bar of w: its callbacks and exits. */
static void walk_finish(struct rp_walk *w)
{
	size_t j = w->next - 1;

	w->pending = false;
	if (w->entered && rp_pass_confirmed(&w->ps, j, 0, w->ps.open->side) == 0) {
		struct rp_held *h = w->ps.held;

		w->ps = w->before;  /* the entry refused: as if it was never filled */
		w->r = w->before_r;
		w->ps.held = h;
	}
	w->entered = false;
	if (w->ps.calls && !rp_pass_calls_at_open(&w->ps, j))
		w->done = true;
	else if (!rp_pass_exits_bar(&w->ps, j))
		w->done = true;
}

int rp_walk_to(struct rp_walk *w, size_t j, struct rp_held *h)
{
	struct rp_pass *ps = &w->ps;

	*h = (struct rp_held){ 0 };
	if (j >= ps->s->n || (j + 1 < w->next) || (j + 1 == w->next && !w->pending))
		return -1;
	ps->held = h;
	if (j + 1 == w->next) {  /* asked again for the pending bar */
		if (!w->done)
			rp_pass_take_held(ps, j);
		return 0;
	}
	while (!w->done && w->next <= j) {
		size_t b = w->next;
		int held;

		if (w->pending)
			walk_finish(w);
		if (w->done)
			break;
		held = ps->open ? ps->open->side : 0;
		w->next = b + 1;
		if (!walk_fill(w, b, held)) {
			w->done = true;
			break;
		}
		w->pending = true;
		if (b < j)
			walk_finish(w);
	}
	if (!w->done)
		rp_pass_take_held(ps, j);
	else
		h->rate = ps->s->open[j];
	return 0;
}

void rp_walk_free(struct rp_walk *w)
{
	if (!w)
		return;
	rp_result_release(&w->r);
	free(w);
}
