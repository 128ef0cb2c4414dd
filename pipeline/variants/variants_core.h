/* variants_core.h - the declared variant family: each parameter set's replay summarised, the
 * per-bar net-return matrix the CSCV of the stats stage reads (its file: vmatrix.h), and
 * variants.csv. */
#ifndef VARIANTS_CORE_H
#define VARIANTS_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "replay_core.h"
#include "vmatrix.h"

/* The most parameter sets a family may hold (inspect refuses more as malformed). */
#define VR_MAX_VARIANTS 1000

/* One variant's outcome. */
struct vr_variant {
	char *params;          /* compact JSON of its keyword arguments (owned) */
	const char *status;    /* the sandbox status name ("ok", "error", ...) */
	char error[1024];      /* why, when status is not "ok" */
	bool ran;              /* ok and replayed: in the matrix */
	size_t trades;
	double sharpe;         /* per trade, mean / sd (ddof 1); NAN when undefined */
	double net_return;     /* the replay's: compounded net equity's end - 1 */
};

/* Summarises the replay r of one variant into v (trades, sharpe, net_return) and writes the
 * per-bar returns of its compounded net equity into col[0..n) (n = r->n_eq; st_curve_returns,
 * 0 after a ruin bar), so the column compounds to 1 + net_return. Returns 0, or -1 when memory
 * ran out. */
int vr_summarise(const struct rp_result *r, struct vr_variant *v, double *col, size_t n);

/* Writes variants.csv: variant,params,status,trades,sharpe,net_return (variant numbered from
 * 1 in declaration order; params quoted compact JSON; empty figures for a failed variant).
 * Returns 0 or -1. */
int vr_csv_write(FILE *fp, const struct vr_variant *v, size_t k);

#endif
