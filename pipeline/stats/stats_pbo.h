/* stats_pbo.h - the Probability of Backtest Overfitting by combinatorially symmetric
 * cross-validation (Bailey, Borwein, Lopez de Prado and Zhu, "The Probability of Backtest
 * Overfitting", 2014, section 2): pure computation over a T x N matrix of per-bar returns. */
#ifndef STATS_PBO_H
#define STATS_PBO_H

#include <stddef.h>

/* A block must hold at least this many bars for its Sharpe ratios to mean anything. */
#define STS_PBO_MIN_BLOCK_BARS 10
/* Logit histogram bins, over [-ln N, ln N] (every logit lies there). */
#define STS_PBO_BINS 20

struct sts_pbo {
	double value;             /* share of splits whose in-sample best ranks at or below the
				   * out-of-sample median: logit <= 0 */
	int blocks;               /* S */
	size_t combinations;      /* C(S, S/2) */
	double prob_oos_loss;     /* share of splits whose in-sample best has OOS Sharpe < 0 */
	double degradation_slope; /* OLS slope of the best's OOS Sharpe on its IS Sharpe */
	double hist_lo, hist_hi;  /* the histogram's range */
	size_t hist[STS_PBO_BINS]; /* logits per bin */
};

/* CSCV over m, n_cols columns of n_bars per-bar returns each (column-major: column j holds
 * m[j * n_bars .. (j + 1) * n_bars)), cut into s contiguous blocks (block b covers bars
 * [b T / s, (b + 1) T / s)). For each of the C(s, s/2) choices of s/2 blocks as in-sample (the
 * rest out of sample), the variant with the highest in-sample Sharpe (mean / sd, ddof 1,
 * per bar; 0 when sd is 0) gets its out-of-sample rank among all N (1 = worst, ties share
 * the mean rank), w = rank / (N + 1), logit ln(w / (1 - w)); when several tie for the best in
 * sample, w (and the out-of-sample Sharpe ratio) is the mean over them, whatever their order. Sums and
 * sums of squares are taken per block once, so each split costs O(s N).
 * Returns 0 with *out filled, or -1 with the reason in why: fewer than 2 variants, s odd or
 * below 2 or above 20, fewer than STS_PBO_MIN_BLOCK_BARS bars per block, or no memory. */
int sts_pbo_cscv(const double *m, size_t n_bars, size_t n_cols, int s, struct sts_pbo *out,
		char *why, size_t whylen);

/* The block counts a PBO is measured at (and PBO_BLOCKS beside them), where T allows. */
#define STS_PBO_SWEEP { 8, 10, 12, 14, 16 }
#define STS_PBO_SWEEP_MAX 6

/* PBO at several block counts: one count flips a verdict the others would not give. */
struct sts_pbo_sweep {
	size_t n;                        /* block counts measured */
	int blocks[STS_PBO_SWEEP_MAX];    /* ascending */
	double value[STS_PBO_SWEEP_MAX];
	double median, min, max;         /* over value[0..n) */
};

/* CSCV at knob blocks into *at_knob (every detail), and at each count of STS_PBO_SWEEP with at
 * least STS_PBO_MIN_BLOCK_BARS bars a block, into *sw with their median. Returns 0, or -1 with
 * the reason in why when CSCV at knob itself cannot be made (as sts_pbo_cscv). */
int sts_pbo_sweep(const double *m, size_t n_bars, size_t n_cols, int knob, struct sts_pbo *at_knob,
		 struct sts_pbo_sweep *sw, char *why, size_t whylen);

#endif
