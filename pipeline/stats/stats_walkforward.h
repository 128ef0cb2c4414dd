/* stats_walkforward.h - walk-forward selection over a family of per-bar returns: before each
 * stretch, pick the variant with the best Sharpe ratio on every bar so far and trade it on that
 * stretch; the stitched out-of-sample equity against the best variant in hindsight. Pure
 * computation. */
#ifndef STATS_WALKFORWARD_H
#define STATS_WALKFORWARD_H

#include <stddef.h>

/* At most this many stretches. */
#define STS_WF_MAX_WINDOWS 100

struct sts_walkforward {
	int windows;
	size_t start[STS_WF_MAX_WINDOWS + 1];  /* stretch w covers bars [start[w], start[w + 1]) */
	size_t choices[STS_WF_MAX_WINDOWS];    /* the column traded on stretch w */
	size_t hindsight;                     /* the column with the best Sharpe on every bar */
	/* over the out-of-sample bars only (start[0] on), each compounded from 1: the per-bar
	 * Sharpe ratio of its per-bar returns (st_curve_returns: up to and including a ruin bar;
	 * mean / sd, ddof 1; 0 when undefined) and the compounded return, of the stitched choices
	 * and of the hindsight column */
	double oos_sharpe, oos_net_return, is_sharpe, is_net_return;
};

/* Cuts n_bars into windows + 1 equal parts (part i starts at bar i n / (windows + 1)); the
 * first is only ever in-sample, and before each later one (a stretch) the column of m (n_cols
 * columns of n_bars, column-major) with the highest Sharpe ratio over bars [0, stretch start)
 * is chosen (mean / sd, ddof 1; 0 when sd is 0; the first on a tie, as PBO ranks). The matrix's
 * values are per-bar returns (vmatrix.h) and compound: equity *= 1 + r. Returns 0, or -1 with
 * the reason in err: no column, windows outside [1, STS_WF_MAX_WINDOWS], or fewer than 2 bars
 * in a part. */
int sts_walkforward(const double *m, size_t n_bars, size_t n_cols, int windows,
		   struct sts_walkforward *out, char *err, size_t errlen);

/* The stitched out-of-sample equity and the hindsight column's, from 1 at bar start[0], into
 * oos and hind (n_bars - start[0] values each, caller's). */
void sts_walkforward_curves(const double *m, size_t n_bars, const struct sts_walkforward *wf,
			   double *oos, double *hind);

#endif
