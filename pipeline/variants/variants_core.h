/* variants_core.h - the declared variant family: each parameter set's replay summarised, the
 * per-bar net-return matrix the CSCV of the stats stage reads, and the files that hold them. */
#ifndef VARIANTS_CORE_H
#define VARIANTS_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "replay_core.h"

#define VR_SCHEMA 1
/* The most parameter sets a family may hold (inspect refuses more as malformed). */
#define VR_MAX_VARIANTS 1000

/* variant_returns.bin, little-endian:
 *   bytes 0-7    the magic "SAVRET1\n"
 *   bytes 8-15   uint64 T, the bars
 *   bytes 16-23  uint64 N, the variants that ran (variants.csv's rows with status ok, in order)
 *   then N columns of T float64: column j, bar t = the change of variant j's net equity over
 *   bar t (bar 0: net equity - 1), so a column sums to the variant's net return. */
#define VR_MAGIC "SAVRET1\n"
#define VR_HEADER_BYTES 24
/* The largest matrix read back: 64 M values (512 MB) */
#define VR_MAX_CELLS (64u << 20)

/* One variant's outcome. */
struct vr_variant {
	char *params;          /* compact JSON of its keyword arguments (owned) */
	const char *status;    /* the sandbox status name ("ok", "error", ...) */
	char error[1024];      /* why, when status is not "ok" */
	bool ran;              /* ok and replayed: in the matrix */
	size_t trades;
	double sharpe;         /* per trade, mean / sd (ddof 1); NAN when undefined */
	double net_return;     /* sum of trade net returns */
};

/* Summarises the replay r of one variant into v (trades, sharpe, net_return) and writes its
 * per-bar net returns into col[0..n) (n = r->n_eq). Returns 0, or -1 when memory ran out. */
int vr_summarise(const struct rp_result *r, struct vr_variant *v, double *col, size_t n);

/* Writes variants.csv: variant,params,status,trades,sharpe,net_return (variant numbered from
 * 1 in declaration order; params quoted compact JSON; empty figures for a failed variant).
 * Returns 0 or -1. */
int vr_csv_write(FILE *fp, const struct vr_variant *v, size_t k);

/* Writes the matrix (n_cols columns of n_bars values, column-major) to fp in the layout above.
 * Returns 0 or -1. */
int vr_matrix_write(FILE *fp, const double *m, size_t n_bars, size_t n_cols);

/* Reads a matrix file: *m (caller frees) holds *n_cols columns of *n_bars values. Returns 0,
 * or -1 with the reason in err (missing, short, bad magic, too large, trailing bytes). */
int vr_matrix_read(const char *path, double **m, size_t *n_bars, size_t *n_cols, char *err,
		   size_t errlen);

#endif
