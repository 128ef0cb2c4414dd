#!/usr/bin/python3
"""An independent PBO by CSCV, written from Bailey, Borwein, Lopez de Prado and Zhu, "The
Probability of Backtest Overfitting" (2014), section 2.2, with numpy alone: it cuts the rows
themselves into blocks and computes each split's Sharpe ratios from the rows (no per-block sums),
so it shares no shortcut with pipeline/stats/stats_pbo.c.

usage: pbo_ref.py MATRIX S      MATRIX is a variant_returns.bin file of version 2 (layout in
                                lib/data/vmatrix.h): each column the per-bar returns of one variant's
                                compounded net equity, so each split's Sharpe ratio is that of
                                the returns on its rows
prints one JSON object: value, combinations, prob_oos_loss, degradation_slope, and by_blocks
{S': value} at S' = 8, 10, 12, 14, 16 and S (each where every block holds at least 10 bars)
with their median, median.

Variants tied for the best in-sample Sharpe ratio share it: the split's w and out-of-sample
Sharpe ratio are the mean over the tied ones, so the order they were declared in does not
matter."""
import itertools
import json
import sys

import numpy as np


def read_matrix(path):
    raw = open(path, "rb").read()
    if raw[:8] == b"SAVRET1\n":
        raise SystemExit("pbo_ref: %s holds per-bar equity changes (version 1), not returns" % path)
    if raw[:8] != b"SAVRET2\n":
        raise SystemExit("pbo_ref: %s is not a variant return matrix" % path)
    t, n = np.frombuffer(raw[8:24], dtype="<u8")
    cols = np.frombuffer(raw[24:], dtype="<f8")
    if cols.size != t * n:
        raise SystemExit("pbo_ref: %s has the wrong length" % path)
    if (cols < -1).any():
        raise SystemExit("pbo_ref: %s holds a return below -1" % path)
    return cols.reshape(int(n), int(t)).T  # T x N, one column per variant


def sharpe(rows):
    """Per-row mean over sd (ddof 1) of each column; 0 where a column does not move."""
    sd = rows.std(axis=0, ddof=1)
    mean = rows.mean(axis=0)
    out = np.zeros(rows.shape[1])
    moving = sd > 1e-150
    out[moving] = mean[moving] / sd[moving]
    return out


def relative_rank(values, k):
    """Step 4e: the rank of values[k] among all (1 = lowest, ties averaged) over N + 1."""
    below = np.sum(values < values[k])
    equal = np.sum(values == values[k])
    return (below + (equal + 1) / 2.0) / (len(values) + 1.0)


def cscv(m, s):
    t, n = m.shape
    edges = [b * t // s for b in range(s + 1)]            # step 2: S contiguous blocks
    blocks = [np.arange(edges[b], edges[b + 1]) for b in range(s)]
    logits, is_best, oos_best = [], [], []
    for train in itertools.combinations(range(s), s // 2):   # step 3
        test = [b for b in range(s) if b not in train]
        j = np.concatenate([blocks[b] for b in train])        # step 4a
        jbar = np.concatenate([blocks[b] for b in test])      # step 4b
        r = sharpe(m[j])                                       # step 4c
        tied = np.flatnonzero(r == r.max())
        rbar = sharpe(m[jbar])                                 # step 4d
        w = np.mean([relative_rank(rbar, k) for k in tied])    # step 4e
        logits.append(np.log(w / (1 - w)))                     # step 4f
        is_best.append(r.max())
        oos_best.append(float(np.mean(rbar[tied])))
    logits = np.array(logits)
    x, y = np.array(is_best), np.array(oos_best)
    slope = np.polyfit(x, y, 1)[0] if np.ptp(x) > 0 else None
    return {
        "value": float(np.mean(logits <= 0)),                  # step 5
        "combinations": len(logits),
        "prob_oos_loss": float(np.mean(y < 0)),
        "degradation_slope": None if slope is None else float(slope),
    }


def sweep(m, s):
    counts = sorted({8, 10, 12, 14, 16, s})
    by = {str(c): cscv(m, c)["value"] for c in counts if m.shape[0] // c >= 10}
    return by, float(np.median(list(by.values())))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    matrix, s = read_matrix(sys.argv[1]), int(sys.argv[2])
    out = cscv(matrix, s)
    out["by_blocks"], out["median"] = sweep(matrix, s)
    print(json.dumps(out))
