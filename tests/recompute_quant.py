"""recompute_quant.py - recomputes stats.json's figures as quantstats defines them from the
bundle's own trades.csv and equity.csv (tests/recompute.py calls quant_checks):

- kelly: the per-trade net returns' win rate p (wins over the trades that are not flat) and
  payoff b (mean win over the magnitude of the mean loss), (b p - (1 - p)) / b;
- ulcer_index: the root of the summed squares of the net equity's falls from its running peak
  (from the first row), over the rows less one, up to and including a row at or below zero;
- recovery_factor: net_return over max_drawdown;
- trade_durations: min, quartiles (numpy's linear rule), max and mean of bars_held (where known)
  and of the hours from entry to exit.
"""
import math
from datetime import datetime, timezone

TOL = 1e-8


def near(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= TOL * max(1.0, abs(b))


def epoch(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp()


def kelly(r):
    wins, losses = [x for x in r if x > 0], [x for x in r if x < 0]
    if not wins or not losses:
        return None
    b = (sum(wins) / len(wins)) / abs(sum(losses) / len(losses))
    p = len(wins) / (len(wins) + len(losses))
    return (b * p - (1 - p)) / b


def ulcer(eq):
    cut = next((i + 1 for i, x in enumerate(eq) if x <= 0), len(eq))
    eq = eq[:cut]
    if len(eq) < 2:
        return None
    peak, total = eq[0], 0.0
    for x in eq:
        peak = max(peak, x)
        total += (x / peak - 1) ** 2 if peak > 0 else 1.0
    return math.sqrt(total / (len(eq) - 1))


def quantile(xs, p):
    xs = sorted(xs)
    at = p * (len(xs) - 1)
    lo = math.floor(at)
    return xs[lo] + (at - lo) * (xs[lo + 1] - xs[lo]) if lo + 1 < len(xs) else xs[-1]


def spread(xs):
    if not xs:
        return None
    out = {k: quantile(xs, p) for k, p in (("min", 0), ("p25", .25), ("median", .5), ("p75", .75), ("max", 1))}
    out["mean"] = sum(xs) / len(xs)
    return out


def quant_checks(stats, trades, curve):
    """(what, good) for every figure above."""
    nets = [float(t["net_return"]) for t in trades]
    checks = [(f"kelly: {stats.get('kelly')!r} vs {kelly(nets)!r}", near(stats.get("kelly"), kelly(nets))),
              (f"ulcer_index: {stats.get('ulcer_index')!r} vs {ulcer(curve)!r}",
               near(stats.get("ulcer_index"), ulcer(curve)))]
    dd = stats["max_drawdown"]
    want = stats["net_return"] / dd if dd > 0 else None
    checks.append((f"recovery_factor: {stats.get('recovery_factor')!r} vs {want!r}",
                   near(stats.get("recovery_factor"), want)))
    got = stats.get("trade_durations") or {}
    checks.append((f"trade_durations.trades: {got.get('trades')!r}", got.get("trades") == len(trades)))
    for key, xs in (("bars", [float(t["bars_held"]) for t in trades if t["bars_held"] != ""]),
                    ("hours", [(epoch(t["exit_time"]) - epoch(t["entry_time"])) / 3600 for t in trades])):
        want = spread(xs)
        g = got.get(key)
        if want is None or g is None:
            checks.append((f"trade_durations.{key}: {g!r} vs {want!r}", g is None and want is None))
            continue
        for k, w in want.items():
            checks.append((f"trade_durations.{key}.{k}: {g.get(k)!r} vs {w!r}", near(g.get(k), w)))
    return checks
