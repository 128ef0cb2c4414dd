/* vmatrix.h - variant_returns.bin, the per-bar net returns of a strategy's declared variants:
 * written by the variants stage, read by the stats stage (PBO by CSCV), a file between them. */
#ifndef SA_VMATRIX_H
#define SA_VMATRIX_H

#include <stddef.h>
#include <stdio.h>

/* variant_returns.bin, little-endian:
 *   bytes 0-7    the magic "SAVRET2\n"
 *   bytes 8-15   uint64 T, the bars
 *   bytes 16-23  uint64 N, the variants that ran (variants.csv's rows with status ok, in order)
 *   then N columns of T float64: column j, bar t = the return of variant j's compounded net
 *   equity over bar t, eq[t] / eq[t - 1] - 1 (bar 0 over 1), the basis of every per-bar figure
 *   (stats_annual.h); 0 after a ruin bar, where nothing is left to move. So a column compounds,
 *   prod (1 + r), to the variant's net return + 1.
 * Version 1 ("SAVRET1\n") held per-bar equity changes, which sum rather than compound: it is
 * refused with that reason, never read as returns. */
#define DA_MAGIC "SAVRET2\n"
#define DA_MAGIC_V1 "SAVRET1\n"
#define DA_HEADER_BYTES 24
/* The largest matrix read back: 64 M values (512 MB) */
#define DA_MAX_CELLS (64u << 20)

/* Writes the matrix (n_cols columns of n_bars values, column-major) to fp in the layout above.
 * Returns 0 or -1. */
int da_vmatrix_write(FILE *fp, const double *m, size_t n_bars, size_t n_cols);

/* Reads a matrix file: *m (caller frees) holds *n_cols columns of *n_bars values. Returns 0,
 * or -1 with the reason in err (missing, short, bad magic, the version 1 layout, too large,
 * trailing bytes). */
int da_vmatrix_read(const char *path, double **m, size_t *n_bars, size_t *n_cols, char *err,
		   size_t errlen);

#endif
