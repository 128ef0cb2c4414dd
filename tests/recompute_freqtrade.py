"""recompute_freqtrade.py - recomputes stats.json's tables in the shape of freqtrade's backtest
report from the bundle's own files (tests/recompute.py calls freqtrade_checks):

- by_exit_reason and by_entry_tag: trades.csv grouped by exit_reason ("" is "unknown", a
  custom_exit with an exit_tag under that tag: the reason custom_exit named) and by
  entry_tag (the untagged trades in the row of key ""), each group's trades, mean and summed
  net_return, mean bars_held over the trades that say it, and wins (net_return > 0), draws (= 0)
  and losses (< 0), most summed return first, ties by key;
- max_consecutive_wins and max_consecutive_losses: the longest runs in entry order (a tie kept in
  trades.csv's order) of net_return > 0 and of the rest, as freqtrade's calc_streak counts;
- market_change: the last close over the first - 1 over the price file given (a trade log's: the
  bars from its first entry to its last exit), only with DATA;
- balance: config.json's costs.stake (without config.json, stats.json's own starting
  balance), and stake x the last net equity of equity.csv.
"""
import json
import os
from datetime import datetime, timezone

TOL = 1e-8  # stats.json carries 10 significant digits


def near(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= TOL * max(1.0, abs(b))


def epoch(s):
    return int(datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp())


def group(trades, key):
    rows = {}
    for t in trades:
        r = rows.setdefault(key(t), {"n": 0, "sum": 0.0, "bars": [], "w": 0, "d": 0, "l": 0})
        net = float(t["net_return"])
        r["n"] += 1
        r["sum"] += net
        r["w" if net > 0 else "l" if net < 0 else "d"] += 1
        if t["bars_held"] != "":
            r["bars"].append(float(t["bars_held"]))
    out = [{"key": k, "trades": r["n"], "mean_return": r["sum"] / r["n"], "sum_return": r["sum"],
            "mean_bars_held": sum(r["bars"]) / len(r["bars"]) if r["bars"] else None,
            "wins": r["w"], "draws": r["d"], "losses": r["l"]} for k, r in rows.items()]
    return sorted(out, key=lambda r: (-r["sum_return"], r["key"]))


def exit_key(t):
    """A trade's by_exit_reason row: a custom exit by the reason custom_exit named (its exit_tag),
    as freqtrade's exit_reason is that string; "unknown" for a trade log's."""
    if t["exit_reason"] == "custom_exit" and t.get("exit_tag"):
        return t["exit_tag"]
    return t["exit_reason"] or "unknown"


def table_checks(name, got, want):
    checks = [(f"{name}: {len(want)} rows", len(got or []) == len(want))]
    for g, w in zip(got or [], want):
        for f in ("key", "trades", "wins", "draws", "losses"):
            checks.append((f"{name}[{w['key']}].{f}: {g.get(f)!r} vs {w[f]!r}", g.get(f) == w[f]))
        for f in ("mean_return", "sum_return", "mean_bars_held"):
            checks.append((f"{name}[{w['key']}].{f}: {g.get(f)!r} vs {w[f]!r}", near(g.get(f), w[f])))
    return checks


def streaks(trades):
    order = sorted(range(len(trades)), key=lambda i: (epoch(trades[i]["entry_time"]), i))
    best, run, last = {1: 0, -1: 0}, 0, 0
    for i in order:
        kind = 1 if float(trades[i]["net_return"]) > 0 else -1
        run = run + 1 if kind == last else 1
        last = kind
        best[kind] = max(best[kind], run)
    return best[1], best[-1]


def market_change(bars, trades, tradelog):
    t, c = bars[0], bars[2]
    if tradelog and trades:
        first = min(epoch(r["entry_time"]) for r in trades)
        last = max(epoch(r["exit_time"]) for r in trades)
        span = [i for i, x in enumerate(t) if first <= x <= last]
        if len(span) >= 2:
            return c[span[-1]] / c[span[0]] - 1
    return c[-1] / c[0] - 1


def freqtrade_checks(d, stats, trades, curve, bars, tradelog):
    """(what, good) for every figure above."""
    checks = table_checks("by_exit_reason", stats.get("by_exit_reason"), group(trades, exit_key))
    checks += table_checks("by_entry_tag", stats.get("by_entry_tag"), group(trades, lambda t: t.get("entry_tag") or ""))
    # the note says what the rows are: no tag at all, every trade tagged, or a row "" of the rest
    tagged = [bool(t.get("entry_tag")) for t in trades]
    note = stats.get("entry_tag_note") or ""
    want = ("No entry tag was recorded" if not any(tagged) else
            "every trade carries one" if all(tagged) else 'the row "" holds the untagged trades')
    checks.append((f"entry_tag_note says {want!r}", want in note))
    wins, losses = streaks(trades)
    checks.append((f"max_consecutive_wins: {stats.get('max_consecutive_wins')!r} vs {wins}",
                   stats.get("max_consecutive_wins") == wins))
    checks.append((f"max_consecutive_losses: {stats.get('max_consecutive_losses')!r} vs {losses}",
                   stats.get("max_consecutive_losses") == losses))
    if bars:
        want = market_change(bars, trades, tradelog)
        checks.append((f"market_change: {stats.get('market_change')!r} vs {want!r}",
                       near(stats.get("market_change"), want)))
    bal = stats.get("balance") or {}
    if os.path.exists(f"{d}/config.json"):
        # the STAKE knob's default (lib/base/config.h) when config.json does not set it
        stake = (json.load(open(f"{d}/config.json")).get("costs") or {}).get("stake", 10000)
    else:  # a directory without the config the stats read: the balance at least holds together
        stake = bal.get("starting_balance")
        checks.append(("balance.stake = balance.starting_balance (no config.json)", bal.get("stake") == stake))
    last = curve[-1] if curve else 1.0
    for f, want in (("starting_balance", stake), ("final_balance", stake * last),
                    ("profit_abs", stake * (last - 1))):
        checks.append((f"balance.{f}: {bal.get(f)!r} vs {want!r}", near(bal.get(f), want)))
    return checks
