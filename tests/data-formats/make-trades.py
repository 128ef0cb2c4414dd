#!/usr/bin/python3
"""make-trades.py - writes one set of trades in every trade-log layout the loader reads.

usage: make-trades.py OUTDIR

Each file holds the same five closed trades (times on the bars of bars.csv); TradingView's
also holds an open trade, which the loader leaves out.
"""
import json
import os
import sys

# entry, exit, side, return as text (a fraction); percent columns are written from the same text
TRADES = [
    ("2023-01-05 00:00", "2023-01-09 00:00", "long", "0.0125"),
    ("2023-01-12 00:00", "2023-01-13 00:00", "short", "-0.004"),
    ("2023-02-01 00:00", "2023-02-20 00:00", "long", "0.031"),
    ("2023-03-03 00:00", "2023-03-04 00:00", "short", "0.0075"),
    ("2023-04-10 00:00", "2023-05-01 00:00", "long", "-0.02"),
]


def pct(r):
    # the same number in percent, written exactly: shift the decimal point two places
    sign = "-" if r.startswith("-") else ""
    whole, frac = r.lstrip("-").split(".")
    frac = frac.ljust(2, "0")
    digits = (whole + frac[:2]).lstrip("0") or "0"
    rest = frac[2:]
    return sign + digits + ("." + rest if rest else "")


def iso(t):
    return t.replace(" ", "T") + ":00Z"


def write(path, text):
    with open(path, "w", newline="") as f:
        f.write(text)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    write(f"{out}/native.csv", "entry_time,exit_time,side,return\n" +
          "".join(f"{iso(e)},{iso(x)},{s},{r}\n" for e, x, s, r in TRADES))
    ft = [{"pair": "BTC/USDT", "open_date": e + ":00+00:00", "close_date": x + ":00+00:00",
           "is_short": s == "short", "profit_ratio": float(r), "profit_abs": 1.0,
           "open_timestamp": 0, "exit_reason": "exit_signal"} for e, x, s, r in TRADES]
    write(f"{out}/freqtrade.json", json.dumps(
        {"strategy": {"SampleStrategy": {"trades": ft, "total_trades": len(ft)}},
         "strategy_comparison": [{"key": "SampleStrategy"}]}, indent=1) + "\n")
    write(f"{out}/freqtrade.csv", "pair,open_date,close_date,is_short,profit_ratio,exit_reason\n" +
          "".join(f"BTC/USDT,{e}:00+00:00,{x}:00+00:00,{s == 'short'},{r},exit_signal\n"
                  for e, x, s, r in TRADES))
    rows = ["Trade #,Type,Date/Time,Signal,Price USD,Position size (qty),Position size (value),"
            "Net P&L USD,Net P&L %,Run-up USD,Run-up %,Drawdown USD,Drawdown %,"
            "Cumulative P&L USD,Cumulative P&L %"]
    for i, (e, x, s, r) in enumerate(TRADES, 1):
        rows.append(f"{i},Exit {s},{x},Close,100,1,100,1,{pct(r)},0,0,0,0,0,0")
        rows.append(f"{i},Entry {s},{e},{'Long' if s == 'long' else 'Short'},100,1,100,1,{pct(r)},0,0,0,0,0,0")
    rows.append("6,Exit long,2023-06-01 00:00,Open,100,1,100,0,0.5,0,0,0,0,0,0")
    rows.append("6,Entry long,2023-05-20 00:00,Long,100,1,100,0,0.5,0,0,0,0,0,0")
    write(f"{out}/tradingview.csv", "\n".join(rows) + "\n")
    # TRADES_COLUMNS=entry=opened,exit=closed,side=direction,return=pnl_pct%
    write(f"{out}/generic.csv", "id,opened,closed,direction,pnl_pct\n" +
          "".join(f"{i},{e},{x},{'buy' if s == 'long' else 'sell'},{pct(r)}%\n"
                  for i, (e, x, s, r) in enumerate(TRADES, 1)))


if __name__ == "__main__":
    main()
