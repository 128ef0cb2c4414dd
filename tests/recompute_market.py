#!/usr/bin/python3
"""recompute_market.py - recomputes, independently of the C code, what an audit says about its
market, its tail, its overlapping trades, its deflation's V[SR] and its Monte Carlo by blocks,
from the bundle's own trades.csv, equity.csv and stats.json (and the price file it read).

usage: recompute_market.py DIR [DATA]
prints one line per figure checked; exits 0 when all agree, 1 when one does not, 2 on bad use.

- benchmark_relative (with DATA and a per-bar curve): OLS of r[i] = eq[i] / eq[i-1] - 1 on
  m[i] = close[i] / close[i-1] - 1 over bars 1.., by numpy's least squares; Newey-West HAC
  errors written out as matrices (Bartlett weights, L = bars^(1/3) rounded); alpha x bars a
  year; the information ratio of r - m; compounded r less compounded m.
- overlap: every instant's open trades counted by brute force over the entry and exit times
  (each trade open over [entry, exit)); a trade's share is 1 / the most open at once in its
  life; a trade log's equity applies each claim to its share of the equity at its entry.
- trials_variance_source: "null_floor" exactly when the measured spread is below 1 / (T - 1).
- tail: no loss, or >= 90 % wins and the worst above mean - z sd, z = Phi^-1(1 - 1/(n + 1)).
- monte_carlo: each trade's net return on its share of the account (1 / the most open at once
  in its life), in stationary blocks of mean trades^(1/3) rounded, redrawn here with numpy's own
  generator (another stream): the bands must agree within their Monte Carlo error.
"""
import csv
import json
import math
import sys
from datetime import datetime, timezone
from statistics import NormalDist

import numpy as np

TOL = 1e-8


def epoch(s):
    return int(datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp())


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def near(a, b, tol=TOL):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def closes(path):
    t, c = [], []
    for r in rows(path):
        t.append(epoch(r["time"]))
        c.append(float(r["close"]))
    return t, c


def hac(x, e, lags):
    """Newey-West (1987) covariance of OLS coefficients: (X'X)^-1 S (X'X)^-1."""
    s = (x * e[:, None]).T @ (x * e[:, None])
    for l in range(1, lags + 1):
        w = 1 - l / (lags + 1)
        g = (x[l:] * e[l:, None]).T @ (x[:-l] * e[:-l, None])
        s += w * (g + g.T)
    inv = np.linalg.inv(x.T @ x)
    return inv @ s @ inv


def market(stats, curve, times, data):
    """(key, got, want) for benchmark_relative."""
    b = stats.get("benchmark_relative")
    if b is None:
        return [("benchmark_relative is null with a reason", bool(stats.get("benchmark_relative_reason")), True)]
    t, c = closes(data)
    assert t == times, "equity.csv is not on the data's bars"
    eq = np.array(curve)
    prev = np.concatenate(([1.0], eq[:-1]))
    k = len(eq)
    if (eq <= 0).any():
        k = int(np.argmax(eq <= 0)) + 1
    r = (eq / prev - 1)[1:k]
    c = np.array(c)
    m = (c[1:] / c[:-1] - 1)[: k - 1]
    n = len(r)
    x = np.column_stack((np.ones(n), m))
    coef, *_ = np.linalg.lstsq(x, r, rcond=None)
    e = r - x @ coef
    lags = min(max(1, round(n ** (1 / 3))), n - 2)
    se = np.sqrt(np.diag(hac(x, e, lags)))
    spacing = (t[-1] - t[0]) / (len(t) - 1)
    q = 365.25 * 86400 / spacing
    d = r - m
    return [("benchmark_relative.bars", b["bars"], n),
            ("benchmark_relative.lags", b["lags"], lags),
            ("benchmark_relative.beta", b["beta"], coef[1]),
            ("benchmark_relative.beta_t", b["beta_t"], coef[1] / se[1]),
            ("benchmark_relative.alpha_annualised", b["alpha_annualised"], coef[0] * q),
            ("benchmark_relative.alpha_t", b["alpha_t"], coef[0] / se[0]),
            ("benchmark_relative.information_ratio", b["information_ratio"],
             d.mean() / d.std(ddof=1) * math.sqrt(q)),
            ("benchmark_relative.excess_return", b["excess_return"],
             float(np.prod(1 + r) - np.prod(1 + m)))]


def overlap(trades):
    """Per trade the most trades open at once in its life, by brute force over every instant
    where a count can change."""
    spans = [(epoch(r["entry_time"]), epoch(r["exit_time"])) for r in trades]
    cuts = sorted({a for a, b in spans if b > a})
    counts = {u: sum(1 for a, b in spans if a <= u < b) for u in cuts}
    most = []
    for a, b in spans:
        inside = [counts[u] for u in cuts if a <= u < b] if b > a else []
        most.append(max(inside + [1]))
    held = sum(b - a for a, b in spans if b > a)
    ev = sorted({x for a, b in spans if b > a for x in (a, b)})
    union = sum(v - u for u, v in zip(ev, ev[1:]) if any(a <= u < b for a, b in spans))
    return most, (held / union if union else 1.0), spans


def overlap_checks(stats, replay, trades, curve):
    o = stats["overlap"]
    most, mult, spans = overlap(trades)
    out = [("overlap.trades_overlapping", o["trades_overlapping"], sum(1 for x in most if x > 1)),
           ("overlap.max_concurrent", o["max_concurrent"], max(most) if most else 0),
           ("overlap.exposure_multiple", o["exposure_multiple"], mult),
           ("overlap.effective_trades", o["effective_trades"], math.fsum(1 / x for x in most))]
    if replay.get("equity_basis") == "trade" and not replay.get("ruined"):
        # each claim on its share of the equity at its entry, in exit order
        order = sorted(range(len(spans)), key=lambda i: (spans[i][1], spans[i][0], i))
        eq, done = 1.0, []
        for i in order:
            before = [v for (t, v) in done if t <= spans[i][0]]
            eq += (before[-1] if before else 1.0) * float(trades[i]["net_return"]) / most[i]
            done.append((spans[i][1], eq))
        out.append(("equity.csv's last row: each trade on its share of the account", curve[-1], eq))
    return out


def variance_checks(stats):
    t = stats["effective_trades"]
    null = 1 / (t - 1)
    src = stats["sr_variance_source"]
    measured = stats["variants"]["sharpe_sd"] ** 2 if src == "variants" else None
    want = "null" if src == "null" else ("null_floor" if measured is not None and measured < null * (1 - 1e-9)
                                         else stats["trials_variance_source"] if src == "knob"
                                         else "measured")
    return [("trials_variance_source", stats["trials_variance_source"], want),
            ("sr_variance is at least the null 1 / (T - 1)", stats["sr_variance"] >= null * (1 - 1e-9), True)]


def tail_checks(stats, nets):
    tl = stats["tail"]
    n = len(nets)
    if n < 2:
        return []
    mean, sd = float(np.mean(nets)), float(np.std(nets, ddof=1))
    z = NormalDist().inv_cdf(1 - 1 / (n + 1))
    wins = sum(1 for x in nets if x > 0) / n
    losing = sum(1 for x in nets if x < 0)
    unseen = losing == 0 or (wins >= 0.9 and min(nets) > mean - z * sd)
    return [("tail.losing_trades", tl["losing_trades"], losing),
            ("tail.worst_trade", tl["worst_trade"], min(nets)),
            ("tail.implied_worst", tl["implied_worst"], mean - z * sd if sd > 0 else None),
            ("tail.unseen", tl["unseen"], unseen)]


def blocks_mc(nets, resamples, seed):
    """Stationary-block resamples of the trades (numpy's generator): drawdown p50 and p95."""
    rng = np.random.default_rng(seed)
    r, n = np.array(nets), len(nets)
    block = max(1, round(n ** (1 / 3)))
    dds, wdds = [], []
    for _ in range(resamples):
        idx = np.empty(n, dtype=int)
        at = rng.integers(n)
        for i in range(n):
            idx[i] = at
            at = rng.integers(n) if rng.random() < 1 / block else (at + 1) % n
        eq = np.cumprod(1 + r[idx])
        peak = np.maximum.accumulate(np.concatenate(([1.0], eq)))[1:]
        dds.append(float(np.max((peak - eq) / peak)))
    return np.quantile(dds, [0.5, 0.95]), block


def mc_checks(stats, trades, nets):
    mc = stats.get("monte_carlo")
    if not mc or len(nets) < 2:
        return []
    # on the headline's account: each trade on its share of it
    most = overlap(trades)[0]
    nets = [x / m for x, m in zip(nets, most)]
    (p50, p95), block = blocks_mc(nets, 2000, 7)
    got50, got95 = mc["max_drawdown"]["p50"], mc["max_drawdown"]["p95"]
    # the Monte Carlo error of a quantile of 1000 draws against one of 2000 (about three of its
    # standard errors): far below the gap between blocks and iid draws of dependent trades
    return [("monte_carlo.method", mc["method"], "stationary_blocks"),
            ("monte_carlo.mean_block", mc["mean_block"], block),
            ("monte_carlo.basis", mc.get("basis"), "account_shares"),
            ("monte_carlo.observed_worst_trade", mc["observed_worst_trade"], min(nets)),
            ("monte_carlo max_drawdown p50 within Monte Carlo error",
             abs(got50 - p50) <= 0.08 * p50 + 1e-6, True),
            ("monte_carlo max_drawdown p95 within Monte Carlo error",
             abs(got95 - p95) <= 0.12 * p95 + 1e-6, True)]


def main():
    if len(sys.argv) not in (2, 3):
        print(next(l for l in __doc__.splitlines() if l.startswith("usage:")), file=sys.stderr)
        return 2
    d = sys.argv[1]
    stats = json.load(open(f"{d}/stats.json"))
    replay = json.load(open(f"{d}/replay.json"))
    trades = rows(f"{d}/trades.csv")
    eqrows = rows(f"{d}/equity.csv")
    curve = [float(r["net_equity"]) for r in eqrows]
    nets = [float(r["net_return"]) for r in trades]
    checks = overlap_checks(stats, replay, trades, curve) + variance_checks(stats) + \
        tail_checks(stats, nets) + mc_checks(stats, trades, nets)
    if len(sys.argv) == 3 and replay.get("equity_basis") == "bar":
        checks += market(stats, curve, [epoch(r["time"]) for r in eqrows], sys.argv[2])
    bad = 0
    for key, got, want in checks:
        good = near(got, want) if isinstance(want, float) else got == want
        bad += not good
        print(f"{'ok' if good else 'MISMATCH'}: {key}: {got!r} vs {want!r}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
