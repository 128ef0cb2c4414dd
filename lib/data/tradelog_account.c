/* tradelog_account.c - an account-level trade log (stakes and profits on one balance) as
 * returns on the account (tradelog.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "msg.h"
#include "tradelog.h"

/* One end of a trade on the time line: an entry adds its stake, an exit takes it away. */
struct edge {
	int64_t t;
	int open;      /* 1 entry, 0 exit: at one instant exits come first */
	double stake;
};

static int by_time(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->open - y->open;
}

/* The largest sum of stakes open at once, and the most trades open at once. Returns -1 when
 * memory ran out. */
static int most_at_once(const struct da_tradelog *log, double *stake, size_t *trades)
{
	struct edge *e = malloc(2 * log->n * sizeof(*e));
	double held = 0;
	size_t open = 0;

	if (!e)
		return -1;
	for (size_t i = 0; i < log->n; i++) {
		e[2 * i] = (struct edge){ log->trades[i].entry, 1, log->trades[i].stake };
		e[2 * i + 1] = (struct edge){ log->trades[i].exit, 0, log->trades[i].stake };
	}
	qsort(e, 2 * log->n, sizeof(*e), by_time);
	*stake = 0;
	*trades = 0;
	for (size_t k = 0; k < 2 * log->n; k++) {
		held += e[k].open ? e[k].stake : -e[k].stake;
		open = e[k].open ? open + 1 : open - 1;
		*stake = held > *stake ? held : *stake;
		*trades = open > *trades ? open : *trades;
	}
	free(e);
	return 0;
}

static int by_exit_time(const void *a, const void *b)
{
	const struct da_trade *x = *(const struct da_trade *const *)a;
	const struct da_trade *y = *(const struct da_trade *const *)b;

	return (x->exit > y->exit) - (x->exit < y->exit);
}

/* The profit realised by trades that closed at or before at: closed[0..n) in exit order,
 * their running sums in cum. */
static double realised_by(const struct da_trade *const *closed, const double *cum, size_t n,
			  int64_t at)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (closed[mid]->exit <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? cum[lo - 1] : 0.0;
}

int da_tradelog_to_account(struct da_tradelog *log, char *err, size_t errlen)
{
	struct da_account *a = &log->account;
	const struct da_trade **closed = malloc((log->n ? log->n : 1) * sizeof(*closed));
	double *cum = malloc((log->n ? log->n : 1) * sizeof(*cum)), most = 0, run = 0;
	int rc = -1;

	if (!closed || !cum || most_at_once(log, &most, &a->most_open) < 0) {
		sa_fmt(err, errlen, "out of memory");
		goto out;
	}
	if (!(a->balance > 0)) {
		a->balance = most;
		snprintf(a->balance_from, sizeof a->balance_from, "no starting balance given: the "
			 "largest sum of stakes open at once");
	}
	if (!(a->balance > 0) || !isfinite(a->balance)) {
		sa_fmt(err, errlen, "the account's balance is not positive (stakes summing to %g)", most);
		goto out;
	}
	for (size_t i = 0; i < log->n; i++)
		closed[i] = &log->trades[i];
	qsort(closed, log->n, sizeof(*closed), by_exit_time);
	for (size_t i = 0; i < log->n; i++)
		cum[i] = run += closed[i]->pnl;
	for (size_t i = 0; i < log->n; i++) {
		struct da_trade *t = &log->trades[i];
		double equity = a->balance + realised_by(closed, cum, log->n, t->entry);

		if (!(equity > 0)) {
			sa_fmt(err, errlen, "line %zu: the account holds %g at this trade's entry: it was "
			       "ruined before", t->line, equity);
			goto out;
		}
		t->ret = t->pnl / equity;
	}
	rc = 0;
out:
	free(closed);
	free(cum);
	return rc;
}
