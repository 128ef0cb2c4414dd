#!/usr/bin/python3
"""replay_ref.py - a numpy-vectorised reference of the replay and the statistics, written
independently of the C code from the conventions in pipeline/README.md (compounded equity). Used by the benchmark
(speed) and the end-to-end test (same figures).

usage: replay_ref.py DATA.csv RUN.json FEE_BPS SLIPPAGE_BPS FUNDING_BPS_8H TRIALS
prints one JSON object: the figures, load_ms (pandas.read_csv) and compute_ms.
The data are bars around the clock (a perp, by the calendar), funding not income: every
position pays |FUNDING_BPS_8H| per instant held, whichever its side.
"""
import json
import math
import sys
import time
from statistics import NormalDist

import numpy as np
import pandas as pd

PERIOD = 28800
EULER = 0.5772156649015329
PHI = NormalDist()


def load(path):
    t0 = time.perf_counter()
    df = pd.read_csv(path)
    ms = (time.perf_counter() - t0) * 1e3
    t = pd.to_datetime(df["time"], utc=True).astype("int64").to_numpy() // 10**9
    cols = [df[c].to_numpy(dtype=np.float64) for c in ("open", "close")]
    return t, cols[0], cols[1], ms


def replay(t, op, cl, sig, fee, slip, fund):
    n = len(t)
    pos = np.empty(n, dtype=np.int64)
    pos[0] = 0
    pos[1:] = sig[:-1]
    prev = np.concatenate(([0], pos[:-1]))
    entries = np.flatnonzero((pos != prev) & (pos != 0))
    changes = np.flatnonzero(pos != prev)
    # each trade ends at the next change after its entry, or runs to the end
    nxt = np.searchsorted(changes, entries, side="right")
    exits = np.where(nxt < len(changes), changes[np.minimum(nxt, len(changes) - 1)], n)
    side = pos[entries]
    at_end = exits == n
    entry_px = op[entries]
    exit_px = np.where(at_end, cl[-1], op[np.minimum(exits, n - 1)])
    gross = side * (exit_px / entry_px - 1.0)
    # funding instants per bar, over [t_j, t_{j+1}); the last bar lasts one spacing
    ends = np.concatenate((t[1:], [t[-1] + (t[-1] - t[-2])]))
    k = (-(-ends // PERIOD)) - (-(-t // PERIOD))
    kc = np.concatenate(([0], np.cumsum(k)))
    funding = (abs(fund) / 1e4) * (kc[exits] - kc[entries])
    unit = (fee + slip) / 1e4
    net = gross - 2 * unit - funding
    # equity compounds: each trade's return applies to the equity it was entered with, and a
    # bar inside a trade is marked at that equity times (1 + return so far - costs so far)
    net_after, gross_after = np.cumprod(1.0 + net), np.cumprod(1.0 + gross)
    if len(net) and net_after.min() <= 0:
        sys.exit("replay_ref.py: the account is ruined; this reference does not model ruin")
    net_in = np.concatenate(([1.0], net_after[:-1]))
    gross_in = np.concatenate(([1.0], gross_after[:-1]))
    bars = np.arange(n)
    closed = np.searchsorted(np.sort(exits), bars, side="right")  # trades closed by bar j's mark
    net_flat = np.concatenate(([1.0], net_after))[closed]
    gross_flat = np.concatenate(([1.0], gross_after))[closed]
    tid = np.maximum(np.cumsum((pos != prev) & (pos != 0)) - 1, 0)
    held = pos != 0
    if len(entries):
        g = np.where(held, pos * (cl / entry_px[tid] - 1.0), 0.0)
        paid = unit + np.abs(pos) * (abs(fund) / 1e4) * (kc[bars + 1] - kc[entries[tid]])
        net_eq = np.where(held, net_in[tid] * (1.0 + g - paid), net_flat)
        gross_eq = np.where(held, gross_in[tid] * (1.0 + g), gross_flat)
        if at_end[-1]:
            net_eq[-1], gross_eq[-1] = net_after[-1], gross_after[-1]
    else:
        net_eq, gross_eq = np.ones(n), np.ones(n)
    return gross, net, net_eq, gross_eq


def stats(net, net_eq, trials, bar_seconds):
    T = len(net)
    mean = net.mean()
    sd = net.std(ddof=1)
    d = net - mean
    m2 = (d**2).mean()
    skew = (d**3).mean() / m2**1.5
    kurt = (d**4).mean() / m2**2
    sr = mean / sd
    v = 1 - skew * sr + (kurt - 1) / 4 * sr * sr
    psr = PHI.cdf(sr * math.sqrt(T - 1) / math.sqrt(v))
    # With only a count of trials, V[SR] is the null 1 / (T - 1): the variance of an estimated
    # Sharpe ratio whose true value is 0, whatever the skew and kurtosis.
    vsr = 1 / (T - 1)
    sr0 = 0.0 if trials == 1 else math.sqrt(vsr) * (
        (1 - EULER) * PHI.inv_cdf(1 - 1 / trials) + EULER * PHI.inv_cdf(1 - 1 / (trials * math.e)))
    dsr = PHI.cdf((sr - sr0) * math.sqrt(T - 1) / math.sqrt(v))
    min_trl = 1 + v * (PHI.inv_cdf(0.95) / sr) ** 2 if sr > 0 else None
    peak = np.maximum.accumulate(np.concatenate(([1.0], net_eq)))[1:]
    mdd = float(((peak - net_eq) / peak).max())
    # the per-bar returns of compounded net equity, up to and including a ruin bar
    dead = np.flatnonzero(net_eq <= 0)
    live = net_eq[:dead[0] + 1] if dead.size else net_eq
    r = live / np.concatenate(([1.0], live[:-1])) - 1
    ann = r.mean() / r.std(ddof=1) * math.sqrt(365.25 * 86400 / bar_seconds)
    return dict(sharpe=sr, skew=skew, kurtosis=kurt, psr=psr, dsr=dsr, sr0=sr0,
                min_trl=min_trl, max_drawdown=mdd, sharpe_annualised=ann)


def main():
    data, run, fee, slip, fund, trials = sys.argv[1:7]
    t, op, cl, load_ms = load(data)
    sig = np.asarray(json.load(open(run))["signals"], dtype=np.int64)
    t0 = time.perf_counter()
    gross, net, net_eq, gross_eq = replay(t, op, cl, sig, float(fee), float(slip), float(fund))
    out = stats(net, net_eq, int(trials), (t[-1] - t[0]) / (len(t) - 1))
    compute_ms = (time.perf_counter() - t0) * 1e3
    out.update(trades=len(net), gross_return=float(gross_eq[-1] - 1), net_return=float(net_eq[-1] - 1),
               sum_gross_return=float(gross.sum()), sum_net_return=float(net.sum()),
               final_net_equity=float(net_eq[-1]), load_ms=load_ms, compute_ms=compute_ms)
    print(json.dumps({k: (float(v) if isinstance(v, (np.floating, float)) else v)
                      for k, v in out.items()}))


if __name__ == "__main__":
    main()
