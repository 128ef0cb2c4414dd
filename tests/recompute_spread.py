#!/usr/bin/python3
"""recompute_spread.py - recomputes, independently of the C code, what an audit says about the
prices it traded at: the spread the bars imply, their staleness, the slippage floor and the
bounce rule, from the price file the audit read and the bundle's stats.json, replay.json and
config.json.

usage: recompute_spread.py DIR DATA
prints one line per figure checked; exits 0 when all agree, 1 when one does not, 2 on bad use.

- roll: 2 sqrt(-cov) of the lag-1 sample covariance (ddof 1) of log close-to-close returns,
  0 when it is not negative (Roll 1984), by numpy's cov.
- corwin_schultz: the two-bar estimate of Corwin and Schultz (2012, eq. 14) over each pair of
  consecutive bars, the second bar shifted back by an overnight gap (their section 3.2),
  negative estimates set to 0, the mean of the pairs; vectorised with pandas.
- abdi_ranaldo: sqrt(max(0, 4 mean((c_t - eta_t)(c_t - eta_t+1)))) (Abdi and Ranaldo 2017,
  eq. 10), c the log close, eta the mean of the log high and the log low.
- estimate: the least of the three; returns_lag1: numpy's corrcoef of the simple returns and
  their lag; zero_returns: the share of closes equal to the one before.
- the floor: replay.json's slippage_bps is max(the configured slippage, SPREAD_FLOOR x half the
  estimate in bps), and slippage_floored says which.
- stale: returns_lag1 above 2 / sqrt(bars) or a tenth of the closes unchanged; bounces: returns_lag1
  below -2 / sqrt(bars).
- bounce: the sign changes and inside_bounce follow from stats.json's own net returns (a late
  fill's sign change counts on bars that bounce).
"""
import json
import math
import sys

import numpy as np
import pandas as pd

TOL = 1e-8


def near(a, b, tol=TOL):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def estimates(df):
    c, h, l = df["close"].to_numpy(float), df["high"].to_numpy(float), df["low"].to_numpy(float)
    r = np.diff(np.log(c))
    cov = np.cov(r[1:], r[:-1], ddof=1)[0, 1]
    roll = 2 * math.sqrt(-cov) if cov < 0 else 0.0
    k = 3 - 2 * math.sqrt(2)
    h0, l0, c0 = pd.Series(h[:-1]), pd.Series(l[:-1]), pd.Series(c[:-1])
    h1, l1 = pd.Series(h[1:]), pd.Series(l[1:])
    gap = np.where(l1 > c0, l1 - c0, np.where(h1 < c0, h1 - c0, 0.0))
    h1, l1 = h1 - gap, l1 - gap
    beta = np.log(h0 / l0) ** 2 + np.log(h1 / l1) ** 2
    gamma = np.log(np.maximum(h0, h1) / np.minimum(l0, l1)) ** 2
    alpha = (np.sqrt(2 * beta) - np.sqrt(beta)) / k - np.sqrt(gamma / k)
    cs = float(np.clip(2 * (np.exp(alpha) - 1) / (1 + np.exp(alpha)), 0, None).mean())
    eta = (np.log(h) + np.log(l)) / 2
    lc = np.log(c)
    ar = math.sqrt(max(0.0, 4 * float(np.mean((lc[:-1] - eta[:-1]) * (lc[:-1] - eta[1:])))))
    simple = c[1:] / c[:-1] - 1
    return {
        "roll_spread": roll,
        "corwin_schultz_spread": cs,
        "abdi_ranaldo_spread": ar,
        "spread_estimate": min(roll, cs, ar),
        "returns_lag1": float(np.corrcoef(simple[1:], simple[:-1])[0, 1]),
        "zero_returns_share": float(np.mean(c[1:] == c[:-1])),
    }


def flags(e, bars):
    return {
        "stale": e["returns_lag1"] > 2 / math.sqrt(bars) or e["zero_returns_share"] >= 0.1,
        "bounces": e["returns_lag1"] < -2 / math.sqrt(bars),
    }


def main():
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    d = sys.argv[1]
    stats = json.load(open(d + "/stats.json"))
    replay = json.load(open(d + "/replay.json"))
    cfg = json.load(open(d + "/config.json"))
    df = pd.read_csv(sys.argv[2])
    df.columns = [x.lower() for x in df.columns]
    tp = stats.get("tradeable_prices")
    bad = 0

    def say(ok, what):
        nonlocal bad
        print(("ok   " if ok else "FAIL ") + what)
        bad += not ok

    if tp is None and replay.get("bars", 0) == 0:
        say(bool(stats.get("tradeable_prices_reason")) and stats.get("bounce") is None,
            "no bars replayed: tradeable_prices null, with its reason")
        return 1 if bad else 0
    if not isinstance(tp, dict):
        say(False, "stats.json has tradeable_prices")
        return 1
    want = estimates(df)
    for key, v in want.items():
        say(near(tp.get(key), v), "%s: stats.json %s, recomputed %.12g" % (key, tp.get(key), v))
    for key, v in flags(want, len(df)).items():
        say(tp.get(key) == v, "%s: stats.json %s, recomputed %s" % (key, tp.get(key), v))
    share = cfg["costs"].get("spread_floor", 1)
    floor = share * want["spread_estimate"] / 2 * 1e4
    costs = replay["costs"]
    configured = costs.get("slippage_configured_bps")
    say(configured is not None and near(costs["slippage_bps"], max(configured, floor)),
        "slippage_bps %s = max(configured %s, floor %.10g)" % (costs["slippage_bps"], configured, floor))
    say(costs.get("slippage_floored") == (floor > configured),
        "slippage_floored %s" % costs.get("slippage_floored"))
    say(near(tp.get("slippage_floor_bps"), floor), "slippage_floor_bps %s" % tp.get("slippage_floor_bps"))
    b = stats.get("bounce")
    if isinstance(b, dict):
        head, late, at_conf = b["net_return"], b["net_return_one_bar_later"], b["net_return_configured_slippage"]
        late_flip = tp["bounces"] and head is not None and late is not None and head > 0 and late <= 0
        say(b["bars_bounce"] == tp["bounces"], "bars_bounce is tradeable_prices.bounces")
        spread_flip = at_conf is not None and head is not None and at_conf > 0 and head <= 0
        say(near(head, stats["net_return"]), "bounce net_return is the headline's")
        delays = {r["delay_bars"]: r["net_return"] for r in stats.get("delay_sensitivity") or []}
        say(near(late, delays.get(2)), "net_return_one_bar_later is delay_sensitivity's t+2 row")
        say(b["sign_changes_late"] == late_flip, "sign_changes_late %s" % late_flip)
        say(b["sign_changes_spread"] == spread_flip, "sign_changes_spread %s" % spread_flip)
        say(b["inside_bounce"] == (late_flip or spread_flip), "inside_bounce %s" % b["inside_bounce"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
