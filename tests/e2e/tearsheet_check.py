#!/usr/bin/python3
"""tests/e2e/tearsheet_check.py - recomputes stats.json's tearsheet figures from the bundle's own
equity.csv, trades.csv, run.json, config.json and the price data, without the C code, and prints
one "ok - what" or "not ok - what" line per figure.

usage: tearsheet_check.py AUDIT_DIR DATA_CSV
       tearsheet_check.py --interval AUDIT_DIR   (the bootstrap interval alone: a trade log)
       tearsheet_check.py --per-bar AUDIT_DIR    (the rolling and per-bar figures alone)

Every annualised figure (the benchmark's Sharpe ratio, the rolling Sharpe ratio and volatility,
the whole period's volatility) is recomputed on the per-bar returns of compounded net equity,
up to and including a ruin bar, and compared to 1e-9.
"""
import csv
import json
import math
import sys
from datetime import datetime, timezone

import numpy as np
import pandas as pd

YEAR = 365.25 * 86400
FUNDING_PERIOD = 28800
failed = False


def report(what, good, detail=""):
    global failed
    print(("ok - " if good else "not ok - ") + what)
    if not good:
        failed = True
        if detail:
            print("#   " + detail)


def close(a, b, rel=1e-7, abs_=1e-9):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= max(abs_, rel * max(abs(a), abs(b)))


def epoch(s):
    return int(datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp())


def iso(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def funding_instants(a, b):
    """instants T, multiples of 8 h, with a <= T < b"""
    first = -(-a // FUNDING_PERIOD) * FUNDING_PERIOD
    return 0 if first >= b else (b - 1 - first) // FUNDING_PERIOD + 1


def holding(side, a, b, fund, borrow):
    """A position's holding cost from a to b: fund(side) per funding instant (perp), borrow a
    year of the calendar time (a short, on stock and spot)."""
    return fund(side) * funding_instants(a, b) + (borrow * (b - a) / (365 * 86400) if side < 0 else 0)


def holding_rates(costs):
    """fund(side) and borrow from replay.json's costs: funding only on a perp, never income
    unless funding_income; borrow only on stock and spot."""
    rate = costs["funding_bps_8h"] / 1e4 if costs["market"] == "perp" else 0.0
    fund = (lambda side: side * rate) if costs["funding_income"] else (lambda side: abs(rate))
    borrow = costs["borrow_bps_year"] / 1e4 if costs["market"] in ("stock", "spot") else 0.0
    return fund, borrow


def replay(t, o, c, pos, fee, slip, fund, borrow):
    """The audit's replay conventions, written out again: pos[j] is held during bar j, filled
    at open[j]; an open position is closed at the last close. Returns the trades' net returns,
    gross returns and costs."""
    n = len(t)
    last_end = t[-1] + (t[-1] - t[-2])
    trades = []
    side, entry_j = 0, None

    def close_trade(exit_px, exit_t):
        g = side * (exit_px / o[entry_j] - 1)
        f = holding(side, t[entry_j], exit_t, fund, borrow)
        cost = 2 * (fee + slip)
        trades.append((g - cost - f, g, cost + f))

    for j in range(1, n):
        p = pos[j]
        if p != side:
            if side:
                close_trade(o[j], t[j])
            side, entry_j = p, j
    if side:
        close_trade(c[-1], last_end)
    return trades


def sharpe(x):
    x = np.asarray(x, float)
    return float(x.mean() / x.std(ddof=1)) if len(x) > 1 and x.std(ddof=1) > 0 else None


def resample_sharpe(x):
    """The Sharpe ratio of one resample; with no spread (below rounding noise of the mean, as
    stats_core.h says) -inf, +inf or 0 by its mean's sign."""
    m = float(np.mean(x))
    if len(x) > 1 and math.sqrt(float(np.mean((x - m) ** 2))) > 1e-14 * abs(m):
        return sharpe(x), None
    return (-math.inf, 0) if m < 0 else (math.inf, 2) if m > 0 else (0.0, 1)


def bootstrap(net, blk, resamples):
    """2.5 and 97.5 % quantiles (order statistics on the side of the tail) over every resample,
    and how many had no spread: [negative, zero, positive]."""
    rng = np.random.default_rng(12345)
    n, srs, flat = len(net), [], [0, 0, 0]
    for _ in range(resamples):
        idx = np.empty(n, int)
        at = rng.integers(n)
        for i in range(n):
            idx[i] = at
            at = rng.integers(n) if rng.random() < 1 / blk else (at + 1) % n
        s, f = resample_sharpe(net[idx])
        srs.append(s)
        if f is not None:
            flat[f] += 1
    srs.sort()
    return srs[math.floor(0.025 * (resamples - 1))], srs[math.ceil(0.975 * (resamples - 1))], flat


def close9(a, b):
    """Within 1e-9, relative above 1: stats.json carries 10 significant digits."""
    return close(a, b, rel=1e-9, abs_=1e-9)


def curve_returns(eq):
    """The per-bar returns of a curve compounded from 1, up to and including the first row at
    or below zero (ruin): the basis of every annualised figure."""
    eq = np.asarray(eq, float)
    dead = np.flatnonzero(eq <= 0)
    eq = eq[:dead[0] + 1] if dead.size else eq
    return eq / np.concatenate([[1.0], eq[:-1]]) - 1


def rolling(r, w, factor):
    """Each window of w returns taken afresh (two passes, no running sums): the annualised
    Sharpe ratio (None for a standard deviation at or below 1e-12) and volatility, by the row
    the window ends on."""
    sharpe, vol = [], []
    view = np.lib.stride_tricks.sliding_window_view(r, w) if len(r) >= w else np.empty((0, w))
    for at in range(0, len(view), 256):
        chunk = view[at:at + 256]
        m, sd = chunk.mean(axis=1), chunk.std(axis=1, ddof=1)
        vol += list(sd * factor)
        sharpe += [x / y * factor if y > 1e-12 else None for x, y in zip(m, sd)]
    return sharpe, vol


def ends_near(a, b):
    return a == b if math.isinf(a) or math.isinf(b) else abs(a - b) < 0.04


def episodes(eq):
    peak, low, peak_at, cur, out = 1.0, 1.0, 0, None, []
    for i, x in enumerate(eq):
        if x >= peak:
            if cur:
                cur.update(depth=(peak - low) / peak, end=i, bars=i - cur["start"])
                out.append(cur)
                cur = None
            peak = low = x
            peak_at = i
        elif cur is None:
            cur = {"start": peak_at, "trough": i}
            low = x
        elif x < low:
            low = x
            cur["trough"] = i
    if cur:
        cur.update(depth=(peak - low) / peak, end=None, bars=len(eq) - 1 - cur["start"])
        out.append(cur)
    out.sort(key=lambda e: (-e["depth"], e["start"]))
    return out[:5]


def check_tearsheet_figures(st, ret, eqdf):
    """Omega, the tail ratio and the best and worst calendar day, as quantstats and pyfolio
    define them, from the per-bar returns and equity.csv's days."""
    r = ret.to_numpy()
    down = float(-r[r < 0].sum())
    omega = float(r[r > 0].sum()) / down if down > 0 else None
    q05, q95 = float(np.percentile(r, 5)), float(np.percentile(r, 95))
    tail = abs(q95) / abs(q05) if q05 != 0 else None
    ok = lambda a, b: (a is None and b is None) or (a is not None and b is not None and close9(a, b))
    report("omega: per-bar gains over per-bar losses", ok(st.get("omega"), omega), f"{st.get('omega')} vs {omega}")
    report("tail_ratio: the 95th percentile over the 5th's magnitude", ok(st.get("tail_ratio"), tail),
           f"{st.get('tail_ratio')} vs {tail}")
    day_end = eqdf.assign(d=eqdf["time"].str[:10]).groupby("d", sort=True)["net_equity"].last().to_numpy()
    prev = np.concatenate([[1.0], day_end[:-1]])
    keep = np.concatenate([[True], np.cumprod(day_end[:-1] > 0).astype(bool)])
    days = (day_end / prev - 1.0)[keep & (prev > 0)]
    report("best_day and worst_day: the compounded curve by calendar day",
           close9(st["best_day"], float(days.max())) and close9(st["worst_day"], float(days.min())),
           f"{st['best_day']} {st['worst_day']} vs {days.max()} {days.min()}")


def check_per_bar(st, cfg, eq, factor):
    """Every per-bar figure on one basis, each recomputed from equity.csv's net equity: the
    per-bar returns of the compounded curve up to and including a ruin bar; the rolling Sharpe
    ratio and volatility with each window taken afresh, the whole period's volatility, VaR,
    CVaR and the best and worst bar, all to 1e-9. Returns the window and the returns."""
    rs = st["rolling_sharpe"]
    knob = cfg.get("tearsheet", {}).get("rolling_window", 0)
    w = knob if knob > 0 else max(2, len(eq) // 4)
    report("rolling window: the knob, or a quarter of the data", rs["window"] == w, f"{rs['window']} vs {w}")
    ret = pd.Series(curve_returns(eq))
    rsh, rvol = rolling(ret.to_numpy(), w, factor)
    roll = pd.Series([x for x in rsh if x is not None], dtype=float)
    report("rolling Sharpe min, max and last, each window's per-bar returns afresh",
           close9(rs["min"], roll.min()) and close9(rs["max"], roll.max()) and
           close9(rs["last"], roll.iloc[-1]), f"{rs} vs {roll.min()} {roll.max()} {roll.iloc[-1]}")
    report("rolling Sharpe share of positive windows", close9(rs["share_positive"], float((roll > 0).mean())),
           f"{rs['share_positive']} vs {float((roll > 0).mean())}")
    report("volatility_annualised = sample sd of per-bar returns x sqrt(bars per year)",
           close9(st["volatility_annualised"], float(ret.std(ddof=1)) * factor),
           f"{st['volatility_annualised']} vs {float(ret.std(ddof=1)) * factor}")
    var = float(np.quantile(ret.to_numpy(), 0.05))
    cvar = float(ret[ret <= var].mean())
    report("var_95: the 5 % quantile of per-bar returns", close9(st["var_95"], var), f"{st['var_95']} vs {var}")
    report("cvar_95: the mean of the bars at or below it", close9(st["cvar_95"], cvar), f"{st['cvar_95']} vs {cvar}")
    report("best_bar and worst_bar", close9(st["best_bar"], float(ret.max())) and close9(st["worst_bar"], float(ret.min())),
           f"{st['best_bar']} {st['worst_bar']} vs {ret.max()} {ret.min()}")
    rv = st["rolling_volatility"]
    vroll = pd.Series(rvol, dtype=float)
    report("rolling volatility over the rolling Sharpe's window: min, max and last",
           rv["window"] == w and close9(rv["min"], vroll.min()) and close9(rv["max"], vroll.max()) and
           close9(rv["last"], vroll.iloc[-1]), f"{rv} vs {vroll.min()} {vroll.max()} {vroll.iloc[-1]}")
    return w, ret


def check_interval(st, cfg, tr):
    """The bootstrap interval, against a stationary block bootstrap drawn with numpy's generator:
    every resample counts, one with no spread at -inf, +inf or 0 by the sign of its mean."""
    ci = st["sharpe_ci95"]
    net = tr["net_return"].to_numpy()
    n, blk = len(net), ci["block_length"]
    report("block length stated: n^(1/3) rounded", blk == max(1, round(n ** (1 / 3))))
    report("2000 resamples, seeded from the config",
           ci["resamples"] == 2000 and ci["seed"] == cfg.get("tearsheet", {}).get("bootstrap_seed", 1))
    if n < 10:
        report("too few trades: no interval, and said", ci["lo"] is None and ci["hi"] is None and
               ci["reason"] == f"too few trades for an interval: {n}, at least 10 needed", f"{ci}")
    else:
        lo, hi, flat = bootstrap(net, blk, 4000)
        got_lo = -math.inf if ci["lo_unbounded"] else ci["lo"]
        got_hi = math.inf if ci["hi_unbounded"] else ci["hi"]
        report("sharpe_ci95 brackets the Sharpe ratio", got_lo < st["sharpe"] < got_hi)
        report("sharpe_ci95 agrees with an independent bootstrap within sampling error",
               ends_near(got_lo, lo) and ends_near(got_hi, hi), f"{ci} vs {lo} {hi}")
        shares = [ci["no_spread"][k] / ci["resamples"] for k in ("negative", "zero", "positive")]
        report("resamples with no spread counted, as often as an independent bootstrap finds them",
               all(abs(a - b / 4000) < 0.03 for a, b in zip(shares, flat)), f"{shares} vs {flat}")


def main():
    d, data_path = sys.argv[1], sys.argv[2]
    st = json.load(open(f"{d}/stats.json"))
    cfg = json.load(open(f"{d}/config.json"))
    run = json.load(open(f"{d}/run.json"))
    eqdf = pd.read_csv(f"{d}/equity.csv")
    tr = pd.read_csv(f"{d}/trades.csv")
    px = pd.read_csv(data_path)
    px.columns = [k.lower() for k in px.columns]  # the bundled layout, or Stooq's Date,Open,...
    t = [epoch(s) if "T" in s else epoch(s + "T00:00:00Z") for s in px["time" if "time" in px else "date"]]
    o, c = px["open"].to_numpy(), px["close"].to_numpy()
    eq = eqdf["net_equity"].to_numpy()
    et = [epoch(s) for s in eqdf["time"]]
    costs = json.load(open(f"{d}/replay.json"))["costs"]
    fee, slip = costs["fee_bps"] / 1e4, costs["slippage_bps"] / 1e4
    fund, borrow = holding_rates(costs)
    bar_s = (t[-1] - t[0]) / (len(t) - 1)
    factor = math.sqrt(YEAR / bar_s)

    # benchmark: long from bar 1's open to the last close
    b = st["benchmark"]
    hold = replay(t, o, c, [0] + [1] * (len(t) - 1), fee, slip, fund, borrow)
    report("benchmark gross_return = close[last] / open[1] - 1",
           close(b["gross_return"], c[-1] / o[1] - 1), f"{b['gross_return']} vs {c[-1] / o[1] - 1}")
    report("benchmark net_return: the same costs and funding as a long", close(b["net_return"], hold[0][0]),
           f"{b['net_return']} vs {hold[0][0]}")
    # its equity marked at each close, entry costs at the fill bar, funding in the bar holding it
    beq, paid = [1.0], 2 * 0 + (fee + slip)
    for j in range(1, len(t)):
        end = t[j + 1] if j + 1 < len(t) else t[-1] + (t[-1] - t[-2])
        paid += holding(1, t[j], end, fund, borrow)
        if j == len(t) - 1:
            paid += fee + slip
        beq.append(1 + c[j] / o[1] - 1 - paid)
    beq = np.array(beq)
    bdd = float(np.max(1 - beq / np.maximum.accumulate(np.maximum(beq, 1.0))))
    report("benchmark max_drawdown from its own equity", close(b["max_drawdown"], bdd, rel=1e-6),
           f"{b['max_drawdown']} vs {bdd}")
    br = curve_returns(beq)
    report("benchmark sharpe_annualised: its per-bar returns (up to a ruin bar), as the strategy's",
           close9(b["sharpe_annualised"], sharpe(br) * factor), f"{b['sharpe_annualised']} vs {sharpe(br) * factor}")
    report("benchmark excess_return = strategy net - holding net",
           close(b["excess_return"], st["net_return"] - b["net_return"]))

    # drawdown episodes
    eps = episodes(eq)
    got = st["drawdowns"]
    report("five drawdown episodes (or all there are)", len(got) == len(eps), f"{len(got)} vs {len(eps)}")
    report("drawdowns[0].depth equals max_drawdown", got and got[0]["depth"] == st["max_drawdown"])
    same = all(g["start"] == iso(et[e["start"]]) and g["trough"] == iso(et[e["trough"]]) and
               g["end"] == (None if e["end"] is None else iso(et[e["end"]])) and
               close(g["depth"], e["depth"]) and g["bars"] == e["bars"] for g, e in zip(got, eps))
    report("drawdown episodes: start, trough, end, depth, bars", same, f"{got} vs {eps}")

    # calendar returns: net equity at each month's last bar over the previous month's
    months = eqdf.assign(m=eqdf["time"].str[:7]).groupby("m", sort=True)["net_equity"].last()
    ref = months / months.shift(1, fill_value=1.0) - 1
    mine = {m["month"]: m["return"] for m in st["monthly"]}
    report("monthly: one row per calendar month", list(mine) == list(ref.index))
    report("monthly returns from equity.csv", all(close(mine[k], float(v), abs_=1e-9) for k, v in ref.items()),
           f"{mine} vs {ref.to_dict()}")
    years = eqdf.assign(y=eqdf["time"].str[:4]).groupby("y")["net_equity"].last()
    yref = years / years.shift(1, fill_value=1.0) - 1
    report("yearly returns from equity.csv",
           all(close(y["return"], float(yref[str(y["year"])])) for y in st["yearly"]) and len(st["yearly"]) == len(yref))
    comp = np.prod([1 + m["return"] for m in st["monthly"]]) - 1
    report("the months compound to the whole period's equity ratio", close(comp, eq[-1] - 1, rel=1e-6))

    w, ret = check_per_bar(st, cfg, eq, factor)
    check_tearsheet_figures(st, ret, eqdf)

    # late fills: the same signals, filled d bars after the bar they were computed on (the
    # scored ones: lookahead.json's live decisions when replay.json says it scored them)
    sig = run["signals"]
    if json.load(open(f"{d}/replay.json")).get("scored") == "live":
        sig = json.load(open(f"{d}/lookahead.json"))["live"]["signals"]
    headline = replay(t, o, c, [0] + sig[:-1], fee, slip, fund, borrow)
    report("the re-written replay reproduces trades.csv (so it can judge the others)",
           len(headline) == len(tr) and all(close(a[0], b_, rel=1e-6, abs_=1e-9)
                                            for a, b_ in zip(headline, tr["net_return"])))
    report("every trade's costs (fees, slippage, funding, borrow) from the market's rules",
           len(headline) == len(tr) and all(close(a[2], b_, rel=1e-6, abs_=1e-12) for a, b_ in zip(
               headline, tr["fees"] + tr["slippage"] + tr["funding"] + tr["borrow"])))
    report(f"{costs['market']}: funding is {'signed' if costs['funding_income'] else 'never income'}"
           f"{'' if costs['market'] == 'perp' else ' (none off a perp)'}, borrow only on a short of stock or spot",
           (costs["funding_income"] or (tr["funding"] >= 0).all()) and
           (costs["market"] == "perp" or (tr["funding"] == 0).all()) and
           (costs["market"] in ("stock", "spot") or (tr["borrow"] == 0).all()) and
           (tr.loc[tr["side"] == "long", "borrow"] == 0).all())
    rows = {r_["delay_bars"]: r_ for r_ in st["delay_sensitivity"]}
    report("delay_sensitivity rows t+1, t+2, t+3, t+5", sorted(rows) == [1, 2, 3, 5])
    report("t+1 is the headline: its sharpe equals stats.json's sharpe", rows[1]["sharpe"] == st["sharpe"])
    for k in (2, 3, 5):
        late = replay(t, o, c, [0] * k + sig[:-k], fee, slip, fund, borrow)
        net = [x[0] for x in late]
        # a path with no ruin (this replay has no marks): the compounded product of its trades
        report(f"t+{k}: trades, Sharpe and compounded net return from a replay {k - 1} bar(s) later",
               not rows[k]["ruined"] and rows[k]["trades"] == len(late) and
               close(rows[k]["sharpe"], sharpe(net), rel=1e-6) and
               close(rows[k]["net_return"], float(np.prod(1 + np.array(net)) - 1), rel=1e-6),
               f"{rows[k]} vs {len(late)} {sharpe(net)} {np.prod(1 + np.array(net)) - 1}")

    # cost break-even: where the compounded net return of the trades with their costs times k is
    # zero (no mark of these paths comes near ruin); tests/recompute.py replays it bar by bar
    be = st["breakeven_cost_multiple"]
    cost = (tr["fees"] + tr["slippage"] + tr["funding"] + tr["borrow"]).to_numpy()
    gross = tr["gross_return"].to_numpy()
    at = lambda k: float(np.prod(1 + gross - k * cost) - 1)
    if be is None:
        report("no breakeven_cost_multiple: the gross return compounded is not positive, as the reason says",
               at(0) <= 0 and "gross return" in (st["breakeven"]["reason"] or ""), f"{at(0)} {st['breakeven']}")
    else:
        report("breakeven_cost_multiple: the compounded net return changes sign across it",
               at(be * (1 - 1e-8)) > 0 >= at(be * (1 + 1e-8)) and abs(at(be)) < 1e-7, f"{be}: {at(be)}")

    check_interval(st, cfg, tr)

    # trade statistics, in the order trades were opened
    ts = st["trade_stats"]
    tr = tr.sort_values("entry_time", kind="stable")
    nr = tr["net_return"].to_numpy()
    wins, losses = nr[nr > 0], nr[nr <= 0]
    run_w = run_l = best_w = best_l = 0
    for x in nr:
        run_w, run_l = (run_w + 1, 0) if x > 0 else (0, run_l + 1)
        best_w, best_l = max(best_w, run_w), max(best_l, run_l)
    bw = tr.loc[tr["net_return"] > 0, "bars_held"].mean()
    bl = tr.loc[tr["net_return"] <= 0, "bars_held"].mean()
    checks = [("avg_win", wins.mean()), ("avg_loss", losses.mean()), ("largest_win", wins.max()),
              ("largest_loss", losses.min()), ("longest_win_streak", best_w), ("longest_loss_streak", best_l),
              ("avg_bars_win", bw), ("avg_bars_loss", bl), ("expectancy", nr.mean())]
    for k, v in checks:
        report(f"trade_stats.{k}", close(ts[k], float(v), rel=1e-6), f"{ts[k]} vs {v}")
    down = math.sqrt((np.minimum(nr, 0) ** 2).mean())
    report("sortino = mean net / downside deviation", close(st["sortino"], nr.mean() / down, rel=1e-6))
    years_ = len(eq) * bar_s / YEAR
    cagr = eq[-1] ** (1 / years_) - 1
    report("cagr from the net equity ratio over the years", close(st["cagr"], cagr, rel=1e-6))
    report("calmar = cagr / max_drawdown", close(st["calmar"], cagr / st["max_drawdown"], rel=1e-6))

    report("cvar_95 <= var_95 < 0 <= best_bar", st["cvar_95"] <= st["var_95"] < 0 <= st["best_bar"])
    report("best_month and worst_month from equity.csv",
           close(st["best_month"], float(ref.max()), abs_=1e-9) and close(st["worst_month"], float(ref.min()), abs_=1e-9),
           f"{st['best_month']} {st['worst_month']} vs {ref.max()} {ref.min()}")
    # buy and hold's year by year, from its own equity marked at each close
    by = pd.Series(beq, index=[iso(x)[:4] for x in t]).groupby(level=0).last()
    byref = by / by.shift(1, fill_value=1.0) - 1
    got_y = {str(y["year"]): y["return"] for y in st["yearly_benchmark"]}
    report("yearly_benchmark: buy and hold's return per calendar year",
           list(got_y) == list(byref.index) and all(close(got_y[k], float(v), rel=1e-6, abs_=1e-9) for k, v in byref.items()),
           f"{got_y} vs {byref.to_dict()}")
    report("yearly_benchmark compounds to the benchmark's net return",
           close(np.prod([1 + v for v in got_y.values()]) - 1, b["net_return"], rel=1e-6))
    # longs and shorts apart, from trades.csv in exit order
    trx = tr.sort_values("exit_time", kind="stable")
    for side in ("long", "short"):
        x = trx.loc[trx["side"] == side, "net_return"].to_numpy()
        got_s = st["long_short"][side]
        want = [len(x), float(np.prod(1 + x) - 1) if len(x) else None,
                float((x > 0).mean()) if len(x) else None,
                float(x.mean() / x.std(ddof=1)) if len(x) > 1 and x.std(ddof=1) > 0 else None]
        have = [got_s["trades"], got_s["net_return"], got_s["win_rate"], got_s["sharpe"]]
        report(f"long_short.{side}: trades, net_return, win_rate, sharpe",
               have[0] == want[0] and all((a is None and b_ is None) or (a is not None and b_ is not None and close(a, b_, rel=1e-6))
                                          for a, b_ in zip(have[1:], want[1:])), f"{have} vs {want}")
    report("long_short: every trade is a long or a short", st["long_short"]["long"]["trades"] + st["long_short"]["short"]["trades"] == len(tr))
    return 1 if failed else 0


def interval_only(d):
    check_interval(json.load(open(f"{d}/stats.json")), json.load(open(f"{d}/config.json")),
                   pd.read_csv(f"{d}/trades.csv"))
    return 1 if failed else 0


def per_bar_only(d):
    """The per-bar figures alone, the bar spacing from equity.csv's own times."""
    eqdf = pd.read_csv(f"{d}/equity.csv")
    et = [epoch(s) for s in eqdf["time"]]
    factor = math.sqrt(YEAR / ((et[-1] - et[0]) / (len(et) - 1)))
    st = json.load(open(f"{d}/stats.json"))
    _, ret = check_per_bar(st, json.load(open(f"{d}/config.json")), eqdf["net_equity"].to_numpy(), factor)
    check_tearsheet_figures(st, ret, eqdf)
    return 1 if failed else 0


if __name__ == "__main__":
    modes = {"--interval": interval_only, "--per-bar": per_bar_only}
    sys.exit(modes[sys.argv[1]](sys.argv[2]) if sys.argv[1] in modes else main())
