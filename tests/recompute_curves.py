"""recompute_curves.py - the curve files the report draws, recomputed independently of the C code
from the bundle's own files (tests/recompute.py calls curve_checks):

- benchmark.csv: buy and hold of the price file (DATA), long from bar 1's open to the last close,
  each bar's close marking 1 + (close / open[1] - 1) - the costs paid so far (fee and slippage on
  entry, a perp's funding per 8 h instant held, fx's long rollover each night held, a short's
  borrow never), the exit's fee and
  slippage at the last close; at or below zero the account is ruined and stays at zero.
- rolling.csv: over stats.json's rolling_sharpe window w of the per-bar returns of equity.csv's
  compounded net curve (from 1, up to and including a ruin bar), the row a window ends on holds
  mean / sd x factor and sd x factor (sd with ddof 1; factor stats.json's
  sharpe_annualised.factor), empty before a full window.
- walkforward.csv: variant_returns.bin cut into windows + 1 parts (part i from bar
  i n / (windows + 1)); before each stretch the column with the best Sharpe ratio (mean / sd,
  ddof 1, 0 when sd is 0, the first on a tie) over the bars so far, traded on the stretch and
  compounded from 1 (the choices must be stats.json's); beside it the column best over every bar.
- montecarlo_fan.csv: its draws come from GSL's generator, so only what follows from the trades
  is checked: the trade column, the bands in order, every band at 1 before the first trade, and
  the last point's 5th, 50th and 95th percentiles equal to stats.json's net_return ones plus 1.
- reconcile.csv: tradelog.csv's claims and trades.csv's net returns, each compounded in exit
  order from 1 at the first entry of either, one row per exit time (the last of trades closing
  together), when no two trades of a curve overlap (an overlap shares the account, see
  pipeline/replay/replay_log.c; then only the row count is checked).
"""
import csv
import math
from bisect import bisect_right
import os
import struct
from datetime import datetime, timedelta, timezone

TOL = 1e-9


def near(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= TOL * max(1.0, abs(a), abs(b))


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(s):
    return None if s == "" else float(s)


def epoch(s):
    return int(datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp())


def funding_instants(a, b):
    """multiples of 8 h since the epoch in [a, b)"""
    first = -(-a // 28800) * 28800
    return 0 if first >= b else (b - 1 - first) // 28800 + 1


NEW_YORK = None


def rollover_nights(a, b):
    """FX rollover nights whose instant, 17:00 in New York (the tz database's America/New_York,
    so its summer time whatever the year), falls in [a, b): three on a Wednesday, none on a
    Saturday or Sunday, one on any other day."""
    global NEW_YORK
    if NEW_YORK is None:
        from zoneinfo import ZoneInfo
        NEW_YORK = ZoneInfo("America/New_York")
    if b <= a:
        return 0
    day = datetime.fromtimestamp(a, NEW_YORK).date() - timedelta(days=1)
    last = datetime.fromtimestamp(b, NEW_YORK).date()
    n = 0
    while day <= last:
        at = datetime(day.year, day.month, day.day, 17, tzinfo=NEW_YORK).timestamp()
        if a <= at < b:
            n += {2: 3, 5: 0, 6: 0}.get(day.weekday(), 1)
        day += timedelta(days=1)
    return n


def swap_rate(costs, side, j=None):
    """A night's swap of the unit notional for side on fx, over a 360-day year; 0 elsewhere.
    costs holds config.json's swap_long_bps_year and swap_short_bps_year, and, when the price
    file carries swap_long and swap_short columns, those columns as "swap_bars" (times, long,
    short): then bar j's own rate replaces the knob's."""
    if costs.get("market") != "fx" or not side:
        return 0.0
    cols = costs.get("swap_bars")
    if cols is not None and j is not None:
        return cols[1 if side > 0 else 2][j] / 1e4 / 360
    return costs.get("swap_long_bps_year" if side > 0 else "swap_short_bps_year", 0.0) / 1e4 / 360


def rollover_paid(costs, side, a, b):
    """The rollover a position of side held over [a, b) pays: each night's rate times the
    nights, by the bar that holds the night when the price file carries swap columns."""
    cols = costs.get("swap_bars")
    if cols is None or costs.get("market") != "fx" or not side:
        return swap_rate(costs, side) * rollover_nights(a, b)
    t, paid = cols[0], 0.0
    for j in range(bisect_right(t, a) - 1 if a >= t[0] else 0, len(t)):
        lo, hi = max(a, t[j]), min(b, t[j + 1] if j + 1 < len(t) else b)
        if lo >= b:
            break
        paid += swap_rate(costs, side, j) * rollover_nights(lo, hi)
    return paid


def buy_and_hold(bars, costs):
    t, o, c = bars[0], bars[1], bars[2]
    n = len(t)
    unit = (costs["fee_bps"] + costs["slippage_bps"]) / 1e4
    rate = costs["funding_bps_8h"] / 1e4 if costs["market"] == "perp" else 0.0
    eq, paid, ruined = [1.0], unit, False
    for j in range(1, n):
        end = t[j + 1] if j + 1 < n else t[j] + (t[j] - t[j - 1])
        paid += abs(rate) * funding_instants(t[j], end)
        paid += swap_rate(costs, 1, j) * rollover_nights(t[j], end)
        e = 1 + (c[j] / o[1] - 1) - paid - (unit if j == n - 1 else 0.0)
        ruined = ruined or e <= 0
        eq.append(0.0 if ruined else e)
    return eq


def benchmark_checks(d, bars, replay):
    got = rows(f"{d}/benchmark.csv")
    costs = replay.get("costs") or {}
    if replay.get("data_error") or "market" not in costs:
        return [("benchmark.csv: no rows without the price data", got == [])]
    if bars is None:
        return []  # recompute.py was given no DATA to replay
    want = buy_and_hold(bars, costs)
    out = [("benchmark.csv: one row a bar", len(got) == len(want))]
    bad = [i for i, (r, w) in enumerate(zip(got, want)) if not near(float(r["net_equity"]), w)
           or epoch(r["time"]) != bars[0][i]]
    out.append((f"benchmark.csv: buy and hold recomputed bar by bar (first differing row {bad[:1]})",
                not bad))
    return out


def curve_returns(curve):
    prev, out = 1.0, []
    for x in curve:
        if prev <= 0:
            break
        out.append(x / prev - 1)
        prev = x
    return out


def rolling_checks(d, stats, equity):
    got = rows(f"{d}/rolling.csv")
    roll = stats.get("rolling_sharpe") or {}
    w = roll.get("window") or 0
    if not stats.get("ok") or w < 2 or "note" in roll or len(equity) < w:
        return [("rolling.csv: no rows without a rolling window", got == [])]
    factor = stats["sharpe_annualised"]["factor"]
    r = curve_returns([float(e["net_equity"]) for e in equity])
    out = [("rolling.csv: one row an equity row, at its time", len(got) == len(equity) and
            all(a["time"] == b["time"] for a, b in zip(got, equity)))]
    bad = []
    for i, row in enumerate(got):
        want_s = want_v = None
        if w - 1 <= i < len(r):
            win = r[i + 1 - w:i + 1]
            mean = math.fsum(win) / w
            sd = math.sqrt(max(0.0, math.fsum((x - mean) ** 2 for x in win) / (w - 1)))
            if len(set(win)) == 1:
                sd = 0.0
            want_v = sd * factor
            want_s = mean / sd * factor if sd > 1e-12 else None
        s, v = num(row["rolling_sharpe"]), num(row["rolling_volatility"])
        if not near(v, want_v) or not (near(s, want_s) or (want_s is None and s is None)):
            bad.append(i)
    out.append((f"rolling.csv: Sharpe ratio and volatility of each window recomputed (first differing "
                f"row {bad[:1]})", not bad))
    return out


def sharpe(col):
    if len(col) < 2:
        return 0.0
    m = math.fsum(col) / len(col)
    sd = math.sqrt(math.fsum((x - m) ** 2 for x in col) / (len(col) - 1))
    return m / sd if sd > 0 else 0.0


def walkforward_checks(d, stats):
    got = rows(f"{d}/walkforward.csv")
    wf = stats.get("walk_forward")
    if not wf:
        return [("walkforward.csv: no rows without a walk-forward", got == [])]
    raw = open(f"{d}/variant_returns.bin", "rb").read()
    n, k = struct.unpack("<QQ", raw[8:24])
    cols = [struct.unpack_from(f"<{n}d", raw, 24 + 8 * n * j) for j in range(k)]
    windows = wf["windows"]
    start = [(w + 1) * n // (windows + 1) for w in range(windows)] + [n]
    ok_cols = [v for v in __import__("json").load(open(f"{d}/variants.json"))["variants"]
               if v.get("status") == "ok"]
    choices, oos = [], []
    for w in range(windows):
        scores = [sharpe(c[:start[w]]) for c in cols]
        choices.append(scores.index(max(scores)))
    best = [sharpe(c) for c in cols]
    h = best.index(max(best))
    e = he = 1.0
    win = 0
    for bar in range(start[0], n):
        while win + 1 < windows and bar >= start[win + 1]:
            win += 1
        e *= 1 + cols[choices[win]][bar]
        he *= 1 + cols[h][bar]
        oos.append((bar, win, e, he))
    out = [("walkforward.csv: the choices are stats.json's",
            [ok_cols[c].get("variant", c + 1) for c in choices] == wf["choices"]),
           ("walkforward.csv: one row an out-of-sample bar", len(got) == len(oos))]
    bad = [i for i, (r, (bar, w, a, b)) in enumerate(zip(got, oos))
           if int(r["bar"]) != bar or int(r["window"]) != w or not near(float(r["oos_equity"]), a)
           or not near(float(r["hindsight_equity"]), b)]
    out.append((f"walkforward.csv: both curves recomputed from variant_returns.bin (first differing "
                f"row {bad[:1]})", not bad))
    out.append(("walkforward.csv: its last row is stats.json's oos_net_return",
                not oos or near(oos[-1][2] - 1, wf["oos_net_return"])))
    return out


def fan_checks(d, stats, nets):
    got = rows(f"{d}/montecarlo_fan.csv")
    mc = stats.get("monte_carlo")
    if not mc:
        return [("montecarlo_fan.csv: no rows without a Monte Carlo", got == [])]
    q = [[float(r[k]) for k in ("p5", "p25", "p50", "p75", "p95")] for r in got]
    n = len(nets)
    ret = mc["net_return"]
    return [("montecarlo_fan.csv: 101 points at trade i n / 100",
             [int(r["trade"]) for r in got] == [i * n // 100 for i in range(101)]),
            # the same equity reached in another order of trades may differ in the last bit
            ("montecarlo_fan.csv: the bands in order at every point",
             all(a <= b + 1e-12 * max(1.0, abs(b)) for p in q for a, b in zip(p, p[1:]))),
            ("montecarlo_fan.csv: every band at 1 before the first trade", q[0] == [1.0] * 5),
            ("montecarlo_fan.csv: the last point's percentiles are stats.json's net_return + 1",
             near(q[-1][0] - 1, ret["p5"]) and near(q[-1][2] - 1, ret["p50"]) and
             near(q[-1][4] - 1, ret["p95"]))]


def compound_log(trades, start):
    """[(time, equity)] from 1 at start, compounded in exit order; None when trades overlap."""
    trades = sorted(trades, key=lambda x: (x[1], x[0]))
    if any(b[0] < a[1] for a, b in zip(trades, trades[1:])):
        return None
    out, e = [(start, 1.0)], 1.0
    for entry, exit_, ret in trades:
        e = max(0.0, e * (1 + ret)) if e > 0 else 0.0
        if len(out) > 1 and out[-1][0] == exit_:
            out.pop()
        out.append((exit_, e))
    return out


def reconcile_checks(d, replay):
    got = rows(f"{d}/reconcile.csv")
    if not replay.get("reconcile"):
        return [("reconcile.csv: no rows without a reconciliation", got == [])]
    claimed = [(epoch(r["entry_time"]), epoch(r["exit_time"]), float(r["return"]))
               for r in rows(f"{d}/tradelog.csv")]
    replayed = [(epoch(r["entry_time"]), epoch(r["exit_time"]), float(r["net_return"]))
                for r in rows(f"{d}/trades.csv")]
    start = min(t[0] for t in claimed + replayed)
    out = []
    for name, trades in (("claimed", claimed), ("replayed", replayed)):
        have = [(epoch(r["time"]), float(r["net_equity"])) for r in got if r["curve"] == name]
        want = compound_log(trades, start)
        if want is None:
            out.append((f"reconcile.csv: the {name} curve has a row per exit and the start",
                        len(have) == len({t[1] for t in trades}) + 1))
            continue
        out.append((f"reconcile.csv: the {name} curve recomputed, exit by exit",
                    len(have) == len(want) and all(a[0] == b[0] and near(a[1], b[1])
                                                   for a, b in zip(have, want))))
    return out


def curve_checks(d, bars, replay, stats):
    """(what, good) for every curve file in d; in a bundle (a report.html beside them) a file
    that is absent fails, elsewhere (stages run by hand) only the files present are checked."""
    has = {f: os.path.exists(f"{d}/{f}") for f in ("benchmark.csv", "rolling.csv", "walkforward.csv",
                                                   "montecarlo_fan.csv", "reconcile.csv")}
    if os.path.exists(f"{d}/report.html") and not all(has.values()):
        return [(f"{f} is in the bundle", False) for f, there in has.items() if not there]
    equity = rows(f"{d}/equity.csv")
    nets = [float(r["net_return"]) for r in rows(f"{d}/trades.csv")]
    out = benchmark_checks(d, bars, replay) if has["benchmark.csv"] else []
    out += rolling_checks(d, stats, equity) if has["rolling.csv"] else []
    out += walkforward_checks(d, stats) if has["walkforward.csv"] else []
    out += fan_checks(d, stats, nets) if has["montecarlo_fan.csv"] else []
    return out + (reconcile_checks(d, replay) if has["reconcile.csv"] else [])
