/* stats_overlap.h - trades open at the same time: how many overlap, how many are open at once,
 * and each trade's share of one account (equal shares by concurrency). Pure computation. */
#ifndef STATS_OVERLAP_H
#define STATS_OVERLAP_H

#include <stddef.h>
#include <stdint.h>

/* The overlap of n trades, each open over [entry, exit) (a trade exiting when another enters
 * does not overlap it; one with exit <= entry is open at no instant and overlaps nothing). */
struct st_overlap {
	size_t trades;
	size_t trades_overlapping;  /* trades open at some instant beside another */
	size_t max_concurrent;      /* the most open at one instant (1 with no overlap, 0 with no trade) */
	double exposure_multiple;   /* the summed time in trades over the time at least one is open:
				     * the account's mean exposure while exposed, 1 with no overlap */
	double shares_sum;          /* the sum of the shares: the trades the account carries as
				     * independent ones (n with no overlap) */
};

/* Fills *o from the trades' times (entry[i], exit[i], seconds) and, when share is not NULL,
 * share[i] = 1 / the most trades open at once at any instant of trade i's life (itself
 * included): at every instant the open trades' shares add up to at most 1, so concurrent
 * trades are shares of one account, not each a full-account bet. Returns 0, or -1 when memory
 * ran out (*o zeroed, share untouched). */
int st_overlap_spans(const int64_t *entry, const int64_t *exit, size_t n, struct st_overlap *o,
		     double *share);

#endif
