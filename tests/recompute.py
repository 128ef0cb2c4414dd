#!/usr/bin/python3
"""recompute.py - recomputes an audit's compounded equity, drawdown and ruin from its own
trades.csv and equity.csv, independently of the C code, and compares them with replay.json and
stats.json. Every figure the report shows about returns must be recomputable from the bundle.

Every annualised figure (sharpe_annualised, its Lo-corrected twin, volatility_annualised) is
recomputed on the per-bar returns of the compounded net curve, eq[i] / eq[i-1] - 1 from 1, up to
and including a ruin bar, and compared to 1e-9; when the bundle holds the declared variants'
variant_returns.bin, each column must compound to variants.csv's net return.

usage: recompute.py DIR [DATA]
prints one line per figure checked; exits 0 when all agree, 1 when one does not, 2 on bad use.
With DATA (the price file the audit read) it replays the scored signals bar by bar, as written
out below, and checks every late-fill row, every replayed cost row and the break-even multiple.
The scored signals are run.json's, or lookahead.json's live.signals when replay.json says
"scored": "live" (each bar decided with only the bars up to it); then the full-history backtest
the replay set beside them is recomputed from backtest_equity.csv (its net and gross returns,
the difference from the live net return in equity.csv, the bars whose decisions differ, and
with DATA a replay of run.json's signals), and the bundle's sums must list it.
The curve files the report draws (benchmark.csv, rolling.csv, walkforward.csv,
montecarlo_fan.csv, reconcile.csv) are recomputed by recompute_curves.py, beside this file,
and the tables freqtrade's backtest report prints (by_exit_reason, by_entry_tag, the longest
runs, market_change, balance) by recompute_freqtrade.py, and quantstats' Kelly, ulcer index,
recovery factor and trade durations by recompute_quant.py.

Conventions (pipeline/README.md): each trade's net return applies to the equity at its entry,
so for trades that do not overlap (a replay of signals) the last net equity is the product of
(1 + net_return) over the trades in order; the curve stops at zero (ruin). Drawdown is the
largest fall from a running peak (starting at 1) of the net equity curve, so it lies in [0, 1].

Costs (a replay of signals), trade by trade from trades.csv and replay.json's cost model: each
trade pays fee_bps and slippage_bps twice (entry and exit); on a perp, funding_bps_8h for each
multiple of 8 h since the epoch in [entry, exit), paid by either side unless funding_income
(then signed: a long pays it, a short receives it); on stock and spot a short pays
borrow_bps_year over 365 days of the time from entry to exit; on fx, in the funding column,
config.json's swap_long_bps_year or swap_short_bps_year (by side) over 360 for each rollover
night in [entry, exit): 17:00 New York (the tz database's), three on Wednesday, none on a
weekend; when the price file carries swap_long and swap_short columns (bps a year), the rate of
the bar that holds the night replaces the knob's, and replay.json's costs.swap_source must say
"columns" (else "knobs"). net_return =
gross_return - every cost, gross_return = side * (exit_px / entry_px - 1).

The replay (with DATA), bar by bar: the position held during bar j is the signal of bar j - 1
(flat on bar 0), filled at open[j]; each unit traded pays fee and slippage; a held bar pays the
funding instants in [t[j], t[j + 1]), fx's rollover nights in it and a short's borrow for
t[j + 1] - t[j] (the last bar one spacing), all booked in that bar. Each close marks the open trade's equity, E_entry * (1 + side *
(close / entry - 1) - its costs so far); at or below zero the account is ruined: the trade is closed
at that close paying its exit, equity is 0 and nothing more trades. A position open at the last bar
is closed at its close. Declared exits fill inside the bar (class Exits below); after one the
position stays flat until the signal changes. A framework run's signals (run.json
signal_entries) are each a position plus 3 times its candle's events (1 a long entry, 2 a short
entry, 4 a long exit, 8 a short exit); wherever a position is meant the value's is ((v + 1) mod
3) - 1, and a replay with exits follows the events instead: flat, an entry event of either side
on the bar before fills at the open (but on the last bar); held, its side's exit event does. A freqtrade class's
trailing stop (trailing.best_first) moves with the bar's best price before its worst is
compared, and an ROI or take-profit level the bar passes comes before a trailing stop it
reaches. freqtrade's rules about the open trade (exits.exit_profit_only, exit_profit_offset,
ignore_roi_if_entry_signal): an exit event fills only when the trade's profit at that open
is above the offset, else the trade is held. A freqtrade class's (exits.source "freqtrade")
rules read every profit as freqtrade's calc_profit_ratio does, with the replay's fee per side
on both legs (never the slippage): at price p a long's is p (1 - fee) / (entry (1 + fee)) - 1,
a short's 1 - p (1 + fee) / (entry (1 - fee)); other exits' is side * (p / entry - 1). That
profit gates the trailing offsets (at the price the trail moves with), exit_profit_only (at the
open) and the ROI step (at the bar's best price), and an ROI exit inside the bar fills at
freqtrade's ROI close rate (_get_close_rate_for_roi) within the bar's low and high; the ROI step does not
apply in a bar whose value before carries the held side's entry (16, the long entry signal as
set, or 1 for a long; 2 for a short). A late fill by d bars replays the signals moved d - 1 bars later; a cost
multiple k replays with every bps figure times k (the fee freqtrade's rules read stays the
audit's own: the same trades pay k times the costs); the break-even is the k where the compounded net
return crosses zero.
"""
import csv
import json
import math
import os
import struct
import statistics
import sys
from statistics import NormalDist

from recompute_curves import (curve_checks, epoch, funding_instants, rollover_nights, rollover_paid,
                              swap_rate)
from recompute_freqtrade import freqtrade_checks
from recompute_quant import quant_checks

TOL = 1e-8  # outputs carry 10 significant digits
TOL_REPLAY = 1e-9  # a replayed row against its independent replay


def near(a, b):
    return abs(a - b) <= TOL * max(1.0, abs(b))


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def with_swap(d, costs):
    """costs (replay.json's) with config.json's FX rollover rates, which replay.json does not
    repeat: bps a year by side."""
    cfg = f"{d}/config.json"
    if isinstance(costs, dict) and os.path.exists(cfg):
        c = json.load(open(cfg)).get("costs", {})
        for k in ("swap_long_bps_year", "swap_short_bps_year"):
            costs.setdefault(k, c.get(k, 0.0))
    return costs


def cost_checks(costs, trades):
    """(what, got, want) for every trade's costs and their sums, from the market's rules."""
    market, income = costs["market"], costs["funding_income"]
    rate = costs["funding_bps_8h"] / 1e4 if market == "perp" else 0.0
    borrow_rate = costs["borrow_bps_year"] / 1e4 if market in ("stock", "spot") else 0.0
    unit = (costs["fee_bps"] / 1e4, costs["slippage_bps"] / 1e4)
    sums = {"fees": [], "slippage": [], "funding": [], "borrow": []}
    worst = {k: 0.0 for k in ("fees", "slippage", "funding", "borrow", "gross_return", "net_return")}
    for r in trades:
        a, b, side = epoch(r["entry_time"]), epoch(r["exit_time"]), 1 if r["side"] == "long" else -1
        want = {"fees": 2 * unit[0], "slippage": 2 * unit[1],
                "funding": (side * rate if income else abs(rate)) * funding_instants(a, b) +
                           rollover_paid(costs, side, a, b),
                "borrow": borrow_rate * (b - a) / (365 * 86400) if side < 0 else 0.0,
                "gross_return": side * (float(r["exit_px"]) / float(r["entry_px"]) - 1)}
        want["net_return"] = want["gross_return"] - math.fsum(want[k] for k in sums)
        for k, w in want.items():
            worst[k] = max(worst[k], abs(float(r[k]) - w))
        for k in sums:
            sums[k].append(float(r[k]))
    out = [(f"every trade's {k} by the {market} rules (largest difference)", worst[k], 0.0)
           for k in worst]
    out += [(f"costs.{k} = sum of the trades' {k}", costs[k], math.fsum(v)) for k, v in sums.items()]
    return out


def compounded(nets):
    eq = 1.0
    for r in nets:
        if eq <= 0:
            break
        eq *= 1.0 + r
    return max(eq, 0.0)


def drawdown(curve):
    peak, worst = 1.0, 0.0
    for x in curve:
        peak = max(peak, x)
        if peak > 0:
            worst = max(worst, (peak - x) / peak)
    return worst


def moments(x):
    """mean, sd (ddof 1), skew, raw kurtosis (population), as stats_core.h defines them."""
    n = len(x)
    if n == 0:
        return math.nan, math.nan, math.nan, math.nan
    mean = math.fsum(x) / n
    d = [v - mean for v in x]
    m2 = math.fsum(v * v for v in d) / n
    m3 = math.fsum(v ** 3 for v in d) / n
    m4 = math.fsum(v ** 4 for v in d) / n
    sd = math.sqrt(m2 * n / (n - 1)) if n >= 2 else math.nan
    spread = m2 > 0 and math.sqrt(m2) > 1e-14 * abs(mean)
    if not spread and n >= 2:
        sd = 0.0
    skew = m3 / m2 ** 1.5 if spread else math.nan
    kurt = m4 / m2 ** 2 if spread else math.nan
    return mean, sd, skew, kurt


def concentration(nets):
    """The best max(1, ceil(5 % of n)) trades: their share of the summed net returns and the
    mean and Sharpe ratio of the rest (pipeline/README.md, Concentration)."""
    n = len(nets)
    k = max(1, math.ceil(0.05 * n)) if n else 0
    best = sorted(nets)
    total = math.fsum(nets)
    rest = best[:n - k]
    mean, sd, _, _ = moments(rest)
    return {
        "removed": k,
        "trades_without": n - k,
        "best_trade_share": best[-1] / total if n and total > 0 else None,
        "best_5pct_share": math.fsum(best[n - k:]) / total if n and total > 0 else None,
        "mean_net_return_without": mean if rest else None,
        "sharpe_without": mean / sd if len(rest) >= 2 and sd > 0 else None,
    }


def autocorr(x, k):
    """The lag-k sample autocorrelation over one mean (stats_core.h); None where undefined."""
    n = len(x)
    if n < k + 2:
        return None
    m = math.fsum(x) / n
    den = math.fsum((v - m) ** 2 for v in x)
    if den <= 0 or math.sqrt(den / n) <= 1e-14 * abs(m):
        return None
    return math.fsum((x[i] - m) * (x[i + k] - m) for i in range(n - k)) / den


def effective(x):
    """n / (1 + 2 sum (1 - k/(L+1)) rho_k), L = n^(1/3) rounded, never above n."""
    n = len(x)
    if n < 3:
        return float(n)
    lags = min(max(1, round(n ** (1 / 3))), n - 2)
    rhos = [(k, autocorr(x, k)) for k in range(1, lags + 1)]
    rhos = [(k, r) for k, r in rhos if r is not None]
    den = 1 + 2 * math.fsum((1 - k / (lags + 1)) * r for k, r in rhos)
    return n / den if rhos and den > 1 else float(n)


def psr(sr, sr_star, t, skew, kurt):
    """Bailey and Lopez de Prado 2012, eq. 11."""
    v = 1 - skew * sr + (kurt - 1) / 4 * sr * sr
    if t < 2 or v <= 0:
        return None
    return NormalDist().cdf((sr - sr_star) * math.sqrt(t - 1) / math.sqrt(v))


def sr0(v_sr, trials):
    """Bailey and Lopez de Prado 2014, eq. 2."""
    if trials == 1:
        return 0.0
    g, z = 0.5772156649015329, NormalDist().inv_cdf
    return math.sqrt(v_sr) * ((1 - g) * z(1 - 1 / trials) + g * z(1 - 1 / (trials * math.e)))


def dependence(stats, nets, curve, per_bar):
    """The lag-1 autocorrelations, the effective trades and the PSR, DSR and MinTRL that count
    them, beside the iid ones; as (key, got, want)."""
    ac = stats.get("autocorrelation") or {}
    mean, sd, skew, kurt = moments(nets)
    out = [("autocorrelation.trades_lag1", ac.get("trades_lag1"), autocorr(nets, 1))]
    if per_bar:
        out.append(("autocorrelation.bars_lag1", ac.get("bars_lag1"), autocorr(bar_returns(curve), 1)))
    if len(nets) < 3 or not sd or math.isnan(skew):
        return out
    sr, n, t_ac = mean / sd, len(nets), effective(nets)
    out.append(("autocorrelation.effective_trades", ac.get("effective_trades"), t_ac))
    # overlap-aware too: the smaller of the two counts (recompute_market.py recomputes the
    # overlap's own figure from the trades' times)
    t_eff = min(t_ac, (stats.get("overlap") or {}).get("effective_trades", t_ac))
    out.append(("effective_trades", stats.get("effective_trades", t_eff), t_eff))
    z = NormalDist().inv_cdf(0.95)
    for suffix, t in (("", t_eff), ("_iid", float(n))):
        # the trials' spread, never below the luck-only null 1 / (T - 1)
        given = stats["sr_variance_source"] != "null"
        v = max(stats["variants"]["sharpe_sd"] ** 2 if stats["sr_variance_source"] == "variants"
                else stats["sr_variance"] if given else 0.0, 1 / (t - 1))
        out.append((f"sr_variance{suffix}", stats[f"sr_variance{suffix}"], v))
        out.append((f"psr{suffix}", stats[f"psr{suffix}"], psr(sr, 0, t, skew, kurt)))
        out.append((f"dsr{suffix}", stats[f"dsr{suffix}"], psr(sr, sr0(v, stats["trials"]), t, skew, kurt)))
        trl = (1 + (1 - skew * sr + (kurt - 1) / 4 * sr * sr) * (z / sr) ** 2) * n / t if sr > 0 else None
        out.append((f"min_trl{suffix}", stats[f"min_trl{suffix}"], trl))
    return out


def near9(a, b):
    """Within 1e-9, relative for figures above 1: stats.json carries 10 significant digits."""
    return a is None and b is None or a is not None and b is not None and \
        abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def bar_returns(curve):
    """The per-bar returns of the compounded net curve from 1, up to and including the first
    row at or below zero (ruin): the basis of every annualised figure."""
    prev, out = 1.0, []
    for x in curve:
        if prev <= 0:
            break
        out.append(x / prev - 1)
        prev = x
    return out


def lo_factor(r, q):
    """Lo (2002) eq. 19 with its (q - k) weights, the sum stopped at n^(1/3) lags (below q):
    (factor, lags, sum of (1 - k/q) rho_k), factor None when the radicand is not positive."""
    n = len(r)
    lags = min(max(1, round(n ** (1 / 3))), n - 2) if n >= 3 else 1
    while lags > 1 and lags >= q:
        lags -= 1
    if n < 3:
        return None, lags, None
    rho = [autocorr(r, k) for k in range(1, lags + 1)]
    radicand = q + 2 * math.fsum((q - k) * x for k, x in enumerate(rho, 1) if x is not None)
    total = math.fsum((1 - k / q) * x for k, x in enumerate(rho, 1) if x is not None)
    return (q / math.sqrt(radicand) if radicand > 0 else None), lags, total


def annualised(stats, curve, times):
    """sharpe_annualised, sharpe_annualised_lo and volatility_annualised from equity.csv alone,
    on the per-bar returns of the compounded curve; as (key, got, want). The bar spacing is
    equity.csv's own: its first to last time over the rows between."""
    r = bar_returns(curve)
    sa, lo = stats["sharpe_annualised"], stats.get("sharpe_annualised_lo") or {}
    q = 365.25 * 86400 / ((times[-1] - times[0]) / (len(times) - 1))
    mean, sd, _, _ = moments(r)
    per_bar = mean / sd if len(r) >= 2 and sd > 1e-12 else None
    factor, lags, total = lo_factor(r, q)
    out = [("sharpe_annualised.bars_per_year", sa["bars_per_year"], q),
           ("sharpe_annualised.factor", sa["factor"], math.sqrt(q)),
           ("sharpe_annualised.per_bar (mean / sd of per-bar returns)", sa["per_bar"], per_bar),
           ("sharpe_annualised.value = per_bar x sqrt(bars per year)", sa["value"],
            None if per_bar is None else per_bar * math.sqrt(q)),
           ("volatility_annualised = sd of per-bar returns x sqrt(bars per year)",
            stats.get("volatility_annualised"), sd * math.sqrt(q) if len(r) >= 2 else None),
           ("sharpe_annualised_lo.factor (Lo 2002, eq. 19)", lo.get("factor"), factor),
           ("sharpe_annualised_lo.autocorrelation_sum", lo.get("autocorrelation_sum"), total),
           ("sharpe_annualised_lo.value = per_bar x Lo's factor", lo.get("value"),
            None if per_bar is None or factor is None else per_bar * factor)]
    out.append(("sharpe_annualised_lo.lags = bars^(1/3) rounded", lo.get("lags"), lags))
    return out


def variant_matrix(d):
    """variant_returns.bin's columns, each the per-bar returns of a variant's compounded net
    equity, compounded and set against variants.csv's net returns; as (what, got, want)."""
    try:
        raw = open(f"{d}/variant_returns.bin", "rb").read()
        rows = [r for r in read_csv(f"{d}/variants.csv") if r["status"] == "ok"]
    except FileNotFoundError:
        return []
    out = [("variant_returns.bin is version 2 (per-bar returns)", raw[:8] == b"SAVRET2\n", True)]
    t, n = struct.unpack("<QQ", raw[8:24])
    out.append(("variant_returns.bin: one column a variant that ran", n, len(rows)))
    for j, row in enumerate(rows[:n]):
        col = struct.unpack_from(f"<{t}d", raw, 24 + 8 * t * j)
        eq = 1.0
        for x in col:
            eq *= 1 + x
        out.append((f"variant {row['variant']}: its column compounds to variants.csv's net_return",
                    eq - 1, float(row["net_return"])))
    return out


def load_bars(path):
    """times, opens, closes, highs and lows of the price file: the bundled layout, or Stooq's
    Date,Open,..."""
    t, o, c, h, lo = [], [], [], [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            row = {k.lower(): v for k, v in row.items()}
            when = row["time"] if "time" in row else row["date"]
            t.append(epoch(when if "T" in when else when + "T00:00:00Z"))
            o.append(float(row["open"]))
            c.append(float(row["close"]))
            h.append(float(row["high"]))
            lo.append(float(row["low"]))
    return t, o, c, h, lo


def load_swaps(path):
    """The price file's FX rollover columns, swap_long and swap_short (bps a year), as (times,
    long, short), or None when it has none."""
    t, lg, sh = [], [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            row = {k.lower(): v for k, v in row.items()}
            if "swap_long" not in row:
                return None
            when = row["time"] if "time" in row else row["date"]
            t.append(epoch(when if "T" in when else when + "T00:00:00Z"))
            lg.append(float(row["swap_long"]))
            sh.append(float(row["swap_short"]))
    return t, lg, sh


class Exits:
    """The declared exits (replay.json "exits"), filled inside the bar as the module docstring
    says: the trail moves with the open; a stop the open is through, then a target the open is
    past, fill at the open (the bar not held); then a stop the low (a short's high) reaches, then
    a target the high (a short's low) passes, at the level, the bar held whole; then the trail
    moves with the bar's best price. The ROI level of a bar: the step with the largest minutes
    at or below the whole minutes held at the bar's open."""

    def __init__(self, d):
        tr = d.get("trailing") or {}
        self.sl, self.tp = d.get("stop_loss") or 0.0, d.get("take_profit") or 0.0
        self.trail, self.pos = tr.get("distance") or 0.0, tr.get("positive") or 0.0
        self.off, self.only = tr.get("offset") or 0.0, bool(tr.get("only_offset"))
        self.best_first = bool(tr.get("best_first"))
        self.roi = [(float(m), float(r)) for m, r in d.get("roi") or []]
        self.profit_only = bool(d.get("exit_profit_only"))
        self.profit_offset = float(d.get("exit_profit_offset") or 0.0)
        self.ignore_roi = bool(d.get("ignore_roi_if_entry_signal"))
        self.ft = d.get("source") == "freqtrade"
        self.fee = 0.0  # the fee per side the rules read; set by replay_bars for a freqtrade class

    def profit(self, side, e, p):
        """The trade's profit at price p as the rules read it: a freqtrade class's is
        calc_profit_ratio's, the legs' values with the fee (open e * (1 + side * fee), close
        p * (1 - side * fee)); at a zero fee, or other exits, side * (p / e - 1)."""
        f = self.fee if self.ft else 0.0
        opened, closed = e * (1 + side * f), p * (1 - side * f)
        return closed / opened - 1 if side > 0 else 1 - closed / opened

    def roi_price(self, side, e, ret):
        """The price past which the profit exceeds the ROI level ret."""
        f = self.fee if self.ft else 0.0
        return e * (1 + side * ret) * (1 + side * f) / (1 - side * f)

    def roi_close(self, side, e, ret, low, high):
        """freqtrade's _get_close_rate_for_roi: the close rate whose fee-paid return is ret,
        within the bar."""
        f = self.fee if self.ft else 0.0
        rate = -(e * ret + side * e * (1 + side * f)) / (f - side)
        return min(max(rate, low), high)

    def arm(self, side, e):
        inf = float("inf")
        self.moved = False
        self.stop = e * (1.0 - side * self.sl) if self.sl else -side * inf
        self.trailing = e * (1.0 - side * self.trail) if self.trail else -side * inf

    def trail_to(self, side, e, p):
        gain = self.profit(side, e, p)
        if not self.trail or (self.only and gain < self.off):
            return
        d = self.pos if self.pos and gain > self.off else self.trail
        level = p * (1.0 - side * d)
        if side * (level - self.trailing) > 0:
            self.trailing = level

    def levels(self, side, e, minutes, no_roi=False):
        inf = float("inf")
        stop, sw = (self.trailing, "trailing_stop") if side * (self.trailing - self.stop) > 0 \
            else (self.stop, "trailing_stop" if self.moved else "stop_loss")
        tp = e * (1.0 + side * self.tp) if self.tp else side * inf
        ret = [] if no_roi else [r for m, r in self.roi if m <= minutes]
        roi = self.roi_price(side, e, ret[-1]) if ret else side * inf
        target, tw = (roi, "roi") if side * (roi - tp) < 0 else (tp, "take_profit")
        self.roi_ret = ret[-1] if ret else None
        return stop, sw, target, tw

    def custom_stop(self, side, best, ratio):
        """custom_stoploss's answer: the stop at the bar's best price times 1 - side * |ratio|
        when tighter; a stop it moved fires as a trailing stop."""
        if not ratio:
            return
        level = best * (1.0 - side * abs(ratio))
        if side * (level - self.stop) > 0:
            self.stop, self.moved = level, True


def read_calls(d, key="calls"):
    """lookahead.json live.calls (or the claimed run's, live.claimed_calls) as {bar: (side, entry
    bar, ratio or None, exit, reason, entry refused)}, or None when the run had no callbacks."""
    path = f"{d}/lookahead.json"
    rows = ((json.load(open(path)).get("live") or {}).get(key)) if os.path.exists(path) else None
    if rows is None:
        return None
    return {r[0]: (r[1], r[2], r[4], r[5], r[6], r[7]) for r in rows}


def replay_bars(bars, signals, costs, k=1.0, delay=0, exits=None, calls=None):
    """The replay written out again (the docstring above), with the declared exits (an Exits or
    None): the trades (entry, exit, side, entry_px, exit_px, why, net), their net returns, the
    compounded net return (-1 at ruin) and whether the account was ruined. After an exit inside a
    bar the position stays flat until the signal changes; signals with events follow them.
    calls (read_calls): a freqtrade class's callback answers, after each bar's open fills:
    confirm_trade_entry's refusal leaves the bar's entry unmade (a flip still closes the trade
    held); custom_exit closes the trade at that open (custom_exit); custom_stoploss moves the stop
    (Exits.custom_stop) while the bar's worst price has not reached it; "mismatch" is the first
    bar whose answers were asked for a trade other than the one held (or None)."""
    t, o, c, hi, lo = bars
    n = len(t)
    late = [0] * delay + list(signals[:n - delay]) if delay else list(signals)
    unit = k * (costs["fee_bps"] + costs["slippage_bps"]) / 1e4
    if exits:  # the audit's own fee, never the slippage, at every cost multiple
        exits.fee = costs["fee_bps"] / 1e4
    rate = k * costs["funding_bps_8h"] / 1e4 if costs["market"] == "perp" else 0.0
    fund = (lambda side: side * rate) if costs["funding_income"] else (lambda side: abs(rate))
    borrow = k * costs["borrow_bps_year"] / 1e4 / (365 * 86400) if costs["market"] in ("stock", "spot") else 0.0
    eq, side, trades, ruined = 1.0, 0, [], False
    entry_eq = entry_px = paid = 0.0
    entry_t = entry_j = 0
    mismatch = None
    if calls is not None and exits is None:
        exits = Exits({})

    def end(j):
        return t[j + 1] if j + 1 < n else t[j] + (t[j] - t[j - 1])

    def close(px, at, why):
        nonlocal eq, side, ruined
        net = side * (px / entry_px - 1) - paid - unit
        trades.append({"entry": entry_t, "exit": at, "side": side, "entry_px": entry_px,
                       "exit_px": px, "why": why, "net": net})
        eq = entry_eq * (1 + net)
        side = 0
        if eq <= 0:
            eq, ruined = 0.0, True

    def roi_aside(j):
        ev = (late[j - 1] + 1) // 3 if j else 0
        return coded and exits.ignore_roi and bool(ev & (1 | 16 if side > 0 else 2))

    def inside(j):
        """(px, why, at_open) when the open trade exits in bar j, else None."""
        exits.trail_to(side, entry_px, o[j])
        stop, sw, target, tw = exits.levels(side, entry_px, (t[j] - entry_t) // 60, roi_aside(j))
        if side * (o[j] - stop) <= 0:
            return o[j], sw, True
        if side * (o[j] - target) > 0:
            return o[j], tw, True
        worst, best = (lo[j], hi[j]) if side > 0 else (hi[j], lo[j])
        if calls is not None and side * (worst - stop) > 0 and j in calls:
            exits.custom_stop(side, best, calls[j][2])
            stop, sw, target, tw = exits.levels(side, entry_px, (t[j] - entry_t) // 60, roi_aside(j))
        if exits.best_first and side * (worst - stop) > 0:
            exits.trail_to(side, entry_px, best)
            stop, sw, target, tw = exits.levels(side, entry_px, (t[j] - entry_t) // 60, roi_aside(j))
        if side * (worst - stop) <= 0 and not (exits.best_first and sw == "trailing_stop" and
                                               side * (best - target) > 0):
            return stop, sw, False
        if side * (best - target) > 0:
            if tw == "roi":
                return exits.roi_close(side, entry_px, exits.roi_ret, lo[j], hi[j]), tw, False
            return target, tw, False
        exits.trail_to(side, entry_px, best)
        return None

    pos = lambda v: (v + 1) % 3 - 1
    coded = any(v > 1 for v in late[:n - 1])
    for j in range(n):
        raw = late[j - 1] if j else 0
        want, before = pos(raw), pos(late[j - 2]) if j > 1 else 0
        if coded and exits:
            ev = (raw + 1) // 3
            kept = exits.profit_only and side and \
                not exits.profit(side, entry_px, o[j]) > exits.profit_offset
            want = (1 if ev & 1 and j < n - 1 else -1 if ev & 2 and j < n - 1 else 0) if side == 0 else \
                0 if ev & (4 if side > 0 else 8) and not kept else side
        if want != side and (want != before or (coded and exits)):
            if side:
                close(o[j], t[j], "signal")
            if ruined:
                break
            if want and not (calls is not None and calls.get(j) and calls[j][5]):
                side, entry_eq, entry_px, paid, entry_t, entry_j = want, eq, o[j], unit, t[j], j
                if exits:
                    exits.arm(side, entry_px)
        if calls is not None:
            row = calls.get(j)
            if mismatch is None and ((row[0] if row and not row[5] else 0) != side or
                                     side and row[1] != entry_j):
                mismatch = j
            if side and row and row[3]:
                close(o[j], t[j], "custom_exit")
                if ruined:
                    break
                continue
        if not side:
            continue
        hit = inside(j) if exits else None
        if hit and hit[2]:
            close(hit[0], t[j], hit[1])
            if ruined:
                break
            continue
        paid += fund(side) * funding_instants(t[j], end(j))
        paid += k * swap_rate(costs, side, j) * rollover_nights(t[j], end(j))
        if side < 0:
            paid += borrow * (end(j) - t[j])
        if hit:
            close(hit[0], end(j), hit[1])
            if ruined:
                break
        elif j == n - 1:
            close(c[j], end(j), "end")
        elif entry_eq * (1 + side * (c[j] / entry_px - 1) - paid) <= 0:
            close(c[j], end(j), "ruin")
            eq, ruined = 0.0, True
            break
    return {"trades": trades, "nets": [x["net"] for x in trades], "net_return": eq - 1,
            "ruined": ruined, "mismatch": mismatch}


def exit_checks(replay, stats, trades, signals, bars, calls=None):
    """Every trade of trades.csv against the replay written out again with its exits: times,
    side, reason, entry and exit prices and net return to 1e-9; and the counts by reason."""
    out = []
    counts = {}
    for x in trades:
        counts[x.get("exit_reason", "")] = counts.get(x.get("exit_reason", ""), 0) + 1
    by = stats.get("exit_reasons") or {}
    out.append(("stats exit_reasons count trades.csv's exit_reason", all(
        by.get(k or "unknown", 0) == v for k, v in counts.items()) and sum(by.values()) == len(trades)))
    if bars is None or signals is None:
        return out
    ex = replay.get("exits")
    x = replay_bars(bars, signals, replay["costs"], 1.0, 0, Exits(ex) if ex else None, calls)
    out.append((f"{len(trades)} trades, as the replay written out again makes", len(x["trades"]) == len(trades)))
    rel = lambda a, b: abs(a - b) <= 1e-9 * max(1.0, abs(b))
    for i, (got, want) in enumerate(zip(trades, x["trades"])):
        good = (epoch(got["entry_time"]) == want["entry"] and epoch(got["exit_time"]) == want["exit"] and
                got["side"] == ("long" if want["side"] > 0 else "short") and
                got["exit_reason"] == want["why"] and rel(float(got["entry_px"]), want["entry_px"]) and
                rel(float(got["exit_px"]), want["exit_px"]) and abs(float(got["net_return"]) - want["net"]) <= 1e-9)
        if not good:
            print(f"# trade {i + 1}: {dict(got)} vs {want}")
        out.append((f"trade {i + 1} ({want['why']}): times, side, reason, prices and net return to 1e-9", good))
    if calls is not None:
        # custom_exit's named reason, on its exit bar, is the trade's exit_tag
        at = {t: j for j, t in enumerate(bars[0])}
        named = [(x.get("exit_tag", ""), (calls.get(at.get(epoch(x["exit_time"]))) or (0, 0, 0, 0, ""))[4])
                 for x in trades if x["exit_reason"] == "custom_exit"]
        out.append((f"{len(named)} custom_exit trades: exit_tag is the reason lookahead.json's live.calls "
                    "gives on the exit bar", all(a == b for a, b in named)))
        out.append(("no answer was asked for a trade the replay does not hold", x["mismatch"] is None))
    return out


def sharpe_of(nets):
    mean, sd, _, _ = moments(nets)
    return mean / sd if len(nets) >= 2 and sd > 0 else None


def psr_of(nets):
    mean, sd, skew, kurt = moments(nets)
    if len(nets) < 2 or not sd or math.isnan(skew):
        return None
    return psr(mean / sd, 0, len(nets), skew, kurt)


def near_replay(a, b):
    return a is None and b is None or a is not None and b is not None and \
        abs(a - b) <= TOL_REPLAY * max(1.0, abs(b))


def rerun_checks(stats, replay, trades, signals, bars, calls=None):
    """Every late-fill row, every cost row and the break-even, against replays written out
    again (or, for rescaled cost rows, the 1x trades with their costs scaled); as (what, good)."""
    out = []
    costs = replay.get("costs", {})
    ex = replay.get("exits")
    exits = (lambda: Exits(ex)) if ex else (lambda: None)
    basis = stats.get("cost_basis")
    rows = stats.get("cost_sensitivity") or []
    out.append(("cost_basis is replayed or rescaled", basis in ("replayed", "rescaled")))
    if basis == "rescaled":
        for r in rows:
            k = r["multiple"]
            nets = [float(x["gross_return"]) - k * math.fsum(float(x[c]) for c in ("fees", "slippage", "funding", "borrow"))
                    for x in trades]
            eq = compounded(nets)
            out.append((f"cost {k:g}x (rescaled): net_return, ruined, sharpe, trades",
                        near_replay(r["net_return"], eq - 1) and r.get("ruined") == (eq <= 0) and
                        near_replay(r["sharpe"], sharpe_of(nets)) and r.get("trades") == len(nets)))
    if bars is None or signals is None:
        if basis == "replayed" or stats.get("delay_sensitivity"):
            print("skip: no DATA given, so the replayed rows and the break-even are not checked")
        return out
    if basis == "replayed":
        for r in rows:
            k = r["multiple"]
            x = replay_bars(bars, signals, costs, k, 0, exits(), calls)
            if x["mismatch"] is not None:  # no figure for a trade path the bot was not asked about
                out.append((f"cost {k:g}x: the answers are for other trades, so no figure",
                            r.get("net_return") is None and r.get("sharpe") is None))
                continue
            good = (r.get("trades") == len(x["nets"]) and r.get("ruined") == x["ruined"] and
                    near_replay(r["net_return"], x["net_return"]) and
                    near_replay(r["sum_net_return"], math.fsum(x["nets"])) and
                    near_replay(r["sharpe"], sharpe_of(x["nets"])) and near_replay(r["psr"], psr_of(x["nets"])))
            print(f"# cost {k:g}x: {r} vs {len(x['nets'])} {x['net_return']!r} {x['ruined']} {sharpe_of(x['nets'])!r}")
            out.append((f"cost {k:g}x replayed: trades, net_return, sum, ruined, sharpe, psr to 1e-9", good))
            if k == 1:
                out.append(("cost 1x is the headline: net_return, sharpe, ruined",
                            r["net_return"] == stats["net_return"] and r["sharpe"] == stats["sharpe"] and
                            r.get("ruined") == stats["ruined"]))
    for r in stats.get("delay_sensitivity") or []:
        d = r["delay_bars"]
        if calls is not None and d > 1:
            out.append((f"t+{d}: fills moved later with callbacks: no figure, and a reason",
                        r.get("trades") is None and r.get("net_return") is None and
                        r.get("sharpe") is None and bool(r.get("reason"))))
            continue
        x = replay_bars(bars, signals, costs, 1.0, d - 1, exits(), calls)
        good = (r.get("trades") == len(x["nets"]) and r.get("ruined") == x["ruined"] and
                near_replay(r["net_return"], x["net_return"]) and near_replay(r["sharpe"], sharpe_of(x["nets"])))
        print(f"# t+{d}: {r} vs {len(x['nets'])} {x['net_return']!r} {x['ruined']} {sharpe_of(x['nets'])!r}")
        out.append((f"t+{d}: trades, compounded net_return, ruined, sharpe from a replay to 1e-9", good))
    out += breakeven_checks(stats, costs, signals, bars, exits, calls)
    return out


def breakeven_checks(stats, costs, signals, bars, exits, calls=None):
    """The break-even: the net return of a replay changes sign across it, within its tolerance;
    or no figure, and the reason holds."""
    be, info = stats.get("breakeven_cost_multiple"), stats.get("breakeven") or {}
    if "breakeven" not in stats:
        return [("stats.json has breakeven", False)]
    net = lambda k: replay_bars(bars, signals, costs, k, 0, exits(), calls)["net_return"]
    if be is None:
        why = info.get("reason") or ""
        gross, one = (replay_bars(bars, signals, costs, 0.0, 0, exits(), calls),
                      replay_bars(bars, signals, costs, 1.0, 0, exits(), calls))
        holds = ("gross return" in why and gross["net_return"] <= 0 or
                 "no trades" in why and not one["nets"] or
                 "paid no costs" in why and costs["fee_bps"] + costs["slippage_bps"] == 0 or
                 "FUNDING_INCOME" in why and costs["funding_income"] or "1e12" in why or
                 "callbacks were not" in why and calls is not None)
        print(f"# break-even: none, {why!r}; gross {gross['net_return']!r}")
        return [("no break-even, and its reason holds", bool(why) and holds)]
    below, at, above = net(be * (1 - 1e-8)), net(be), net(be * (1 + 1e-8))
    print(f"# break-even {be!r}: net {below!r} just below, {at!r} at, {above!r} just above")
    out = [("break-even: the replayed net return is positive just below it and not above",
            below > 0 >= above),
           # lo and hi carry 10 significant digits: their width may be one unit of the last more
           ("break-even: bracketed within its tolerance", info["lo"] <= be <= info["hi"] and
            info["hi"] - info["lo"] <= (info["tolerance"] + 1e-9) * info["hi"])]
    if info.get("at_ruin"):
        out.append(("break-even at ruin: the replay just above it is ruined",
                    replay_bars(bars, signals, costs, be * (1 + 1e-8), 0, exits(), calls)["ruined"]))
    else:
        out.append(("break-even: the replayed net return there is zero within 1e-7", abs(at) <= 1e-7))
    return out


def live_checks(d, replay, curve, run, bars):
    """The live decisions against the backtest (replay.json "scored", "backtest",
    "live_vs_backtest") from backtest_equity.csv, equity.csv, run.json and lookahead.json; with
    DATA the backtest replayed again from run.json's signals. As (what, good)."""
    if "scored" not in replay:
        return []
    out = []
    rows = read_csv(f"{d}/backtest_equity.csv") if os.path.exists(f"{d}/backtest_equity.csv") else None
    out.append(("backtest_equity.csv is there beside replay.json's scored", rows is not None))
    if rows is None:
        return out
    eq_rows = read_csv(f"{d}/equity.csv")
    net = [float(r["net_equity"]) for r in rows]
    gross = [float(r["gross_equity"]) for r in rows]
    bt = replay.get("backtest") or {}
    out.append(("backtest_equity.csv has equity.csv's columns and times",
                list(rows[0].keys()) == list(eq_rows[0].keys()) and
                [r["time"] for r in rows] == [r["time"] for r in eq_rows]))
    out.append(("backtest.net_return = backtest_equity.csv's last net equity - 1",
                near(bt.get("net_return"), net[-1] - 1)))
    out.append(("backtest.gross_return = backtest_equity.csv's last gross equity - 1",
                near(bt.get("gross_return"), gross[-1] - 1)))
    d_lb = replay.get("live_vs_backtest")
    if replay["scored"] != "live":
        out.append(("scored backtest: backtest_equity.csv is equity.csv, no live_vs_backtest",
                    rows == eq_rows and d_lb is None and bt.get("trades") == replay.get("trades")))
        return out
    la = json.load(open(f"{d}/lookahead.json")).get("live") or {}
    live, full = la.get("signals") or [], run.get("signals") or []
    differing = sum(a != b for a, b in zip(live, full))
    out += [("live_vs_backtest.net_return_live = equity.csv's last net equity - 1",
             near(d_lb["net_return_live"], curve[-1] - 1) and near(replay["net_return"], curve[-1] - 1)),
            ("live_vs_backtest.net_return_backtest = backtest_equity.csv's last net equity - 1",
             near(d_lb["net_return_backtest"], net[-1] - 1)),
            ("live_vs_backtest.difference = backtest less live net return, each compounded",
             near(d_lb["difference"], (net[-1] - 1) - (curve[-1] - 1))),
            # a memory mismatch holds the whole prefix's decision, run.json's: no difference
            ("live_vs_backtest.differing_bars and live.differing count the bars whose live.signals differ from run.json's",
             len(live) == len(full) > 0 and d_lb["differing_bars"] == differing == la.get("differing")),
            ("live.first_differences lists bars whose live and backtest values differ, each as live.signals and run.json give it",
             all(x["live"] == live[x["bar"]] and x["backtest"] == full[x["bar"]] and
                 (x["live"] != x["backtest"] or x["confirmed"] == "leak") for x in la.get("first_differences", [])))]
    if bars is not None:
        ex = replay.get("exits")
        # the backtest the author saw calls its callbacks too: the claimed run's answers
        claimed = read_calls(d, "claimed_calls")
        x = replay_bars(bars, full, replay["costs"], 1.0, 0, Exits(ex) if ex else None, claimed)
        print(f"# backtest replayed: {len(x['nets'])} trades, {x['net_return']!r} vs {bt}")
        out.append(("backtest: run.json's signals replayed again (with live.claimed_calls) give its trades and net return to 1e-9",
                    bt.get("trades") == len(x["nets"]) and near_replay(bt.get("net_return"), x["net_return"])))
    if os.path.exists(f"{d}/sha256sums.txt"):
        out.append(("the bundle's sums list backtest_equity.csv", any(
            l.split()[-1] == "backtest_equity.csv" for l in open(f"{d}/sha256sums.txt") if l.strip())))
    return out


def calibration_checks(d):
    """The Honest limitations' sentence against the bundle's calibration.json: the rates and the
    Clopper-Pearson interval recomputed from its counts (scipy's beta quantiles)."""
    if not os.path.exists(f"{d}/calibration.json") or not os.path.exists(f"{d}/report.html"):
        return []
    import html
    import re
    from scipy.stats import beta
    cal = json.load(open(f"{d}/calibration.json"))
    page = open(f"{d}/report.html").read()
    m = re.search(r'<li id="calibration">(.*?)</li>', page, re.S)
    said = html.unescape(m.group(1)) if m else ""
    n, la = cal["null"], cal["lookahead"]
    x, t = n["ready"], n["audits"]
    lo = 0.0 if x == 0 else beta.ppf(0.025, x, t - x + 1)
    hi = 1.0 if x == t else beta.ppf(0.975, x + 1, t - x)
    out = [("calibration ci95 is the Clopper-Pearson interval of ready/audits",
            abs(lo - n["ci95"][0]) < 1e-5 and abs(hi - n["ci95"][1]) < 1e-5)]
    for phrase in (f"on {t} strategies with no edge", f"came out {x} times ({x / t * 100:.1f} %",
                   f"95 % interval {lo * 100:.1f}-{hi * 100:.1f} %",
                   f"READY or WATCH {n['rate_ready_or_watch'] * 100:.1f} %",
                   f"{la['caught']} of {la['leaks']} generated look-ahead leaks were rejected",
                   f"{la['false_alarms']} of {la['causal']} causal look-alikes", cal["date"]):
        out.append((f"the report's calibration sentence says '{phrase}'", phrase in said))
    power = ""
    for edge in dict.fromkeys(c["edge_sharpe"] for c in cal["power"]):
        cells = [c for c in cal["power"] if c["edge_sharpe"] == edge]
        power += (f"; a built-in per-trade Sharpe ratio of {edge:g} was READY in "
                  f"{cells[0]['ready_rate'] * 100:.0f} % of audits at {cells[0]['bars']} bars"
                  + "".join(f", {c['ready_rate'] * 100:.0f} % at {c['bars']}" for c in cells[1:]))
    out.append(("the report's calibration sentence ends with the power table", said.endswith(power + ".")))
    return out


def hindsight_sealed_checks(d):
    """robustness.json's hindsight shares from its own profits; the sealed gate from sealed.json."""
    out = []
    rb = json.load(open(f"{d}/robustness.json")) if os.path.exists(f"{d}/robustness.json") else {}
    h = rb.get("hindsight")
    if h and h["real"]["material"]:
        real = h["real"]["net_profit"]
        moved = sorted(x if x is not None else math.nan for x in h["calendar"]["net_profit"])
        moved = [x for x in moved if not math.isnan(x)]
        if moved:
            out.append(("hindsight.calendar.profit_kept = median moved profit / real profit",
                        abs(h["calendar"]["profit_kept"] - statistics.median(moved) / real) < 1e-4))
        if h["ticks"]["net_profit"] is not None:
            out.append(("hindsight.ticks.profit_kept = nudged profit / real profit",
                        abs(h["ticks"]["profit_kept"] - h["ticks"]["net_profit"] / real) < 1e-4))
        pos = h["calendar"]["positions"]
        if pos["held_bars"]:
            out.append(("hindsight.calendar.positions.stayed_share = stayed_bars / held_bars",
                        abs(pos["stayed_share"] - pos["stayed_bars"] / pos["held_bars"]) < 1e-6))
        stayed = pos["stayed_share"] is not None and (
            pos["stayed_share"] >= pos["share_threshold"] or
            (pos["stayed_z"] is not None and pos["stayed_z"] >= pos["z_threshold"]))
        out.append(("hindsight.calendar.positions.stayed_put follows its share and z", pos["stayed_put"] == stayed))
        cal = h["calendar"]["profit_kept"]
        flag = (cal is not None and cal < h["profit_threshold"] and stayed) or \
            (h["ticks"]["profit_kept"] is not None and h["ticks"]["profit_kept"] < h["profit_threshold"]) or \
            h["surrogate_trades"]["keyed_to_real_bars"]
        out.append(("hindsight.flagged follows the shares kept", h["flagged"] == flag))
    v = json.load(open(f"{d}/verdict.json")) if os.path.exists(f"{d}/verdict.json") else {}
    gate = next((g for g in v.get("gates", []) if g["name"] == "sealed"), None)
    if gate is not None:
        sl = json.load(open(f"{d}/sealed.json"))
        holds = sl.get("ok") is True and sl.get("outcome") in ("weaker", "as_open", "stronger")
        out.append(("sealed gate = an outcome of sealed.json where the edge holds",
                    gate["pass"] == holds == bool(sl.get("edge_holds"))))
        told = {"outcome", "edge_holds", "complete", "refused", "bars", "bound_bits", "budget",
                "reason", "stage", "schema", "ok"}
        out.append(("sealed.json carries the outcome, the bound and the budget, nothing more",
                    set(sl) <= told and set(sl.get("budget", {})) <= {"used", "of", "lineage_used", "spent"}))
        outcomes = ["failed", "cut_short", "refused", "fails", "weaker", "as_open", "stronger"]
        if sl.get("ok"):
            out.append(("sealed.json bound_bits = log2 of the outcomes a run can steer",
                        abs(sl["bound_bits"] - math.log2(len(outcomes))) < 1e-3))
    return out


def same(a, b):
    return a is None and b is None or a is not None and b is not None and near(a, b)


def account_checks(account, curve):
    """An account log: profit_total is the curve's end - 1 (balance + realised profit over the
    balance), max_drawdown_account freqtrade's: the cumulative profit's deepest fall below its
    running high (from the first close), over the balance at that high."""
    balance = account["starting_balance"]
    high, worst, at = None, 0.0, 0.0
    for eq in curve:
        cum = (eq - 1) * balance
        high = cum if high is None or cum > high else high
        if cum - high < worst:
            worst, at = cum - high, high
    return [("account profit_total = last net equity - 1", account["profit_total"], curve[-1] - 1),
            ("account max_drawdown_account, freqtrade's definition", account["max_drawdown_account"],
             -worst / (balance + at) if worst < 0 else 0.0)]


def main():
    if len(sys.argv) not in (2, 3):
        print(next(l for l in __doc__.splitlines() if l.startswith("usage:")), file=sys.stderr)
        return 2
    d = sys.argv[1]
    bars = load_bars(sys.argv[2]) if len(sys.argv) == 3 else None
    replay = json.load(open(f"{d}/replay.json"))
    with_swap(d, replay.get("costs"))
    swaps = load_swaps(sys.argv[2]) if bars else None
    stats = json.load(open(f"{d}/stats.json"))
    trades = read_csv(f"{d}/trades.csv")
    curve = [float(r["net_equity"]) for r in read_csv(f"{d}/equity.csv")]
    nets = [float(r["net_return"]) for r in trades]
    grosses = [float(r["gross_return"]) for r in trades]
    checks = []
    last = curve[-1] if curve else 1.0
    if replay.get("equity_basis") == "bar":
        # trades of a replay never overlap: the product is the curve's end
        checks.append(("final net equity = product of (1 + net_return)", last, compounded(nets)))
        checks.append(("gross_return = product of (1 + gross_return) - 1",
                       stats["gross_return"], compounded(grosses) - 1))
    checks.append(("stats net_return = last net equity - 1", stats["net_return"], last - 1))
    checks.append(("replay net_return = last net equity - 1", replay["net_return"], last - 1))
    checks.append(("sum_net_return = sum of net_return", stats["sum_net_return"], math.fsum(nets)))
    checks.append(("max_drawdown from equity.csv", stats["max_drawdown"], drawdown(curve)))
    source = []
    if replay.get("costs", {}).get("market") == "fx" and bars:
        got = replay["costs"].get("swap_source")
        source.append((f"costs.swap_source {got!r} names the rollover's source: the price file's "
                       "swap columns, else the knobs", got == ("columns" if swaps else "knobs")))
        if swaps:
            replay["costs"]["swap_bars"] = swaps
    if not replay.get("trusted_returns") and "market" in replay.get("costs", {}):
        checks += cost_checks(replay["costs"], trades)
    if replay.get("account"):
        checks += account_checks(replay["account"], curve)
    bad = 0
    conc = stats.get("concentration") or {}
    for key, want in concentration(nets).items():
        good = same(conc.get(key), want)
        bad += not good
        print(f"{'ok' if good else 'MISMATCH'}: concentration.{key}: {conc.get(key)!r} vs {want!r}")
    for key, got, want in dependence(stats, nets, curve, replay.get("equity_basis") == "bar"):
        good = same(got, want)
        bad += not good
        print(f"{'ok' if good else 'MISMATCH'}: {key}: {got!r} vs {want!r}")
    if replay.get("equity_basis") == "bar" and len(curve) >= 2:
        times = [epoch(r["time"]) for r in read_csv(f"{d}/equity.csv")]
        for key, got, want in annualised(stats, curve, times):
            good = got == want if key.endswith("lags = bars^(1/3) rounded") else near9(got, want)
            bad += not good
            print(f"{'ok' if good else 'MISMATCH'}: {key}: {got!r} vs {want!r}")
    for what, got, want in variant_matrix(d):
        good = near9(got, want) if isinstance(want, float) else got == want
        bad += not good
        print(f"{'ok' if good else 'MISMATCH'}: {what}: {got!r} vs {want!r}")
    edge = conc.get("edge_without")
    want_edge = (concentration(nets)["mean_net_return_without"] or 0) > 0
    bad += edge is not want_edge
    print(f"{'ok' if edge is want_edge else 'MISMATCH'}: concentration.edge_without: {edge!r} vs {want_edge!r}")
    for what, got, want in checks:
        agree = near(got, want)
        bad += not agree
        print(f"{'ok' if agree else 'MISMATCH'}: {what}: {got!r} vs {want!r}")
    run = json.load(open(f"{d}/run.json")) if os.path.exists(f"{d}/run.json") else {}
    signals = run.get("signals") if replay.get("mode") != "tradelog" else None
    calls = None
    if replay.get("scored") == "live":
        # every figure scores the live decisions: they are the signals replayed again, with the
        # callbacks' answers of that live run
        signals = (json.load(open(f"{d}/lookahead.json")).get("live") or {}).get("signals")
        calls = read_calls(d)
    for what, good in rerun_checks(stats, replay, trades, signals, bars, calls) + (
            exit_checks(replay, stats, trades, signals, bars, calls) if replay.get("equity_basis") == "bar" else []) + \
            live_checks(d, replay, curve, run, bars) + source:
        bad += not good
        print(f"{'ok' if good else 'MISMATCH'}: {what}")
    for what, good in calibration_checks(d):
        bad += not good
        print(f"{'ok' if good else 'MISMATCH'}: {what}")
    for what, good in curve_checks(d, bars, replay, stats):
        bad += not good
        print(f"{'ok' if good else 'MISMATCH'}: {what}")
    for what, good in freqtrade_checks(d, stats, trades, curve, bars, replay.get("mode") == "tradelog") + \
            quant_checks(stats, trades, curve):
        bad += not good
        print(f"{'ok' if good else 'MISMATCH'}: {what}")
    for what, good in hindsight_sealed_checks(d):
        bad += not good
        print(f"{'ok' if good else 'MISMATCH'}: {what}")
    dd = stats["max_drawdown"]
    in_range = 0 <= dd <= 1
    ruined = any(x <= 0 for x in curve)
    for what, good in (("max_drawdown lies in [0, 1]", in_range),
                       ("ruined agrees with the curve", stats["ruined"] == ruined == replay["ruined"]),
                       ("a ruined curve stays at zero", not ruined or all(
                           x == 0 for x in curve[next(i for i, x in enumerate(curve) if x <= 0):])),
                       ("ruin means a 100 % drawdown", not ruined or dd == 1)):
        bad += not good
        print(f"{'ok' if good else 'MISMATCH'}: {what}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
