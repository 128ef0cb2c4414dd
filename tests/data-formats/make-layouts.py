#!/usr/bin/python3
"""make-layouts.py - writes every OHLCV layout the loader accepts from one set of bars.

usage: make-layouts.py BARS.csv OUTDIR

BARS.csv is the native layout (time,open,high,low,close,volume, ISO-8601 UTC), as
tests/data-formats/bars.csv; the columns gendata writes after those six (funding_rate, a
perpetual's funding) are read past and left out, since no layout below carries them. Each layout
holds the same bars, with the numbers' text unchanged, so each must load to the same doubles.
The date-only layouts (yahoo, no-volume) write the time too when the bars are intraday.
"""
import csv
import datetime as dt
import gzip
import os
import sys

import pandas as pd

import feather


OHLCV = ["time", "open", "high", "low", "close", "volume"]
EXTRA = ["funding_rate"]  # what may follow the six, in this order (gendata's series)


def read_bars(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    assert head[:6] == OHLCV and head[6:] == EXTRA[:len(head) - 6], head
    out = []
    for i, r in enumerate(rows[1:], 2):
        assert len(r) == len(head), "line %d: %d fields for %d columns" % (i, len(r), len(head))
        t = dt.datetime.strptime(r[0], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
        out.append((t, r[1:6]))
    return out


def write(path, lines, sep=","):
    with open(path, "w", newline="") as f:
        for line in lines:
            f.write(sep.join(line) + "\n")


def epoch(t):
    return int(t.timestamp())


def layouts(bars, out):
    daily = all(t.hour == 0 and t.minute == 0 and t.second == 0 for t, _ in bars)
    day = "%Y-%m-%d" if daily else "%Y-%m-%d %H:%M:%S"
    iso = [(t.strftime("%Y-%m-%dT%H:%M:%SZ"), v) for t, v in bars]
    write(f"{out}/native.csv", [["time", "open", "high", "low", "close", "volume"]] +
          [[t] + v for t, v in iso])
    # Yahoo Finance daily download: Adj Close before Volume (here equal to Close)
    write(f"{out}/yahoo.csv", [["Date", "Open", "High", "Low", "Close", "Adj Close", "Volume"]] +
          [[t.strftime(day)] + v[:4] + [v[3], v[4]] for t, v in bars])
    # pandas DataFrame.to_csv() of a tz-aware index, written by pandas itself
    frame = pd.DataFrame([v for _, v in bars], columns=["open", "high", "low", "close", "volume"],
                         index=pd.DatetimeIndex([t for t, _ in bars], name="datetime"))
    frame.to_csv(f"{out}/pandas.csv")
    # a local exchange clock: numeric offset, converted back to UTC by the loader
    ny = dt.timezone(dt.timedelta(hours=-5))
    write(f"{out}/offset.csv", [["Time", "Open", "High", "Low", "Close", "Volume"]] +
          [[t.astimezone(ny).strftime("%Y-%m-%d %H:%M:%S%z")] + v for t, v in bars])
    # Binance klines: no header, open time in ms, twelve fields
    step = int((bars[1][0] - bars[0][0]).total_seconds()) if len(bars) > 1 else 86400
    klines = [[str(epoch(t) * 1000)] + v + [str((epoch(t) + step) * 1000 - 1), "0", "1", "0", "0", "0"]
              for t, v in bars]
    write(f"{out}/binance-klines.csv", klines)
    with gzip.GzipFile(f"{out}/binance-klines.csv.gz", "wb", mtime=0) as g:
        g.write(open(f"{out}/binance-klines.csv", "rb").read())
    # ccxt fetch_ohlcv saved as rows: no header, ms, six fields
    write(f"{out}/ccxt.csv", [[str(epoch(t) * 1000)] + v for t, v in bars])
    # epoch seconds under a synonym, semicolons, an extra column
    write(f"{out}/semicolon.csv", [["symbol", "open_time", "o", "h", "l", "c", "vol"]] +
          [["BTCUSDT", str(epoch(t))] + v for t, v in bars], sep=";")
    write(f"{out}/tab.tsv", [["Timestamp", "OPEN", "HIGH", "LOW", "CLOSE", "VOLUME"]] +
          [[t.strftime("%Y-%m-%d %H:%M")] + v for t, v in bars], sep="\t")
    with gzip.GzipFile(f"{out}/native.csv.gz", "wb", mtime=0) as g:
        g.write(open(f"{out}/native.csv", "rb").read())
    # MetaTrader 5 "Export bars": tab, <> around the names, date and time in two columns,
    # dotted dates; the real volume in <VOL> (taken over <TICKVOL>)
    write(f"{out}/metatrader5.csv", [["<DATE>", "<TIME>", "<OPEN>", "<HIGH>", "<LOW>", "<CLOSE>",
                                      "<TICKVOL>", "<VOL>", "<SPREAD>"]] +
          [[t.strftime("%Y.%m.%d"), t.strftime("%H:%M:%S")] + v[:4] + [str(1000 + i), v[4], "2"]
           for i, (t, v) in enumerate(bars)], sep="\t")
    # the same with the <> taken out and commas, as a user first fixes it
    write(f"{out}/metatrader5-plain.csv", [["DATE", "TIME", "OPEN", "HIGH", "LOW", "CLOSE",
                                            "TICKVOL", "VOL", "SPREAD"]] +
          [[t.strftime("%Y.%m.%d"), t.strftime("%H:%M:%S")] + v[:4] + [str(1000 + i), v[4], "2"]
           for i, (t, v) in enumerate(bars)])
    # MetaTrader 4 History Center export: no header, date and time of day, then o, h, l, c, v
    write(f"{out}/metatrader4.csv", [[t.strftime("%Y.%m.%d"), t.strftime("%H:%M")] + v
                                     for t, v in bars])
    # Dukascopy: "Gmt time", day first with dots, milliseconds
    write(f"{out}/dukascopy.csv", [["Gmt time", "Open", "High", "Low", "Close", "Volume"]] +
          [[t.strftime("%d.%m.%Y %H:%M:%S.000")] + v for t, v in bars])
    # CryptoDataDownload: its URL on the first line, newest first, a volume in each asset
    write(f"{out}/cryptodatadownload.csv", [["https://www.CryptoDataDownload.com"],
                                            ["unix", "date", "symbol", "open", "high", "low",
                                             "close", "Volume BTC", "Volume USDT", "tradecount"]] +
          [[str(epoch(t) * 1000), t.strftime("%Y-%m-%d %H:%M:%S"), "BTC/USDT"] + v +
           ["%.2f" % (float(v[4]) * float(v[3])), str(100 + i)]
           for i, (t, v) in reversed(list(enumerate(bars)))])
    # freqtrade's download-data --data-format-ohlcv json (and jsongz): [[ms, o, h, l, c, v], ...]
    text = "[" + ",".join("[%d,%s]" % (epoch(t) * 1000, ",".join(v)) for t, v in bars) + "]"
    with open(f"{out}/freqtrade.json", "w") as f:
        f.write(text)
    with gzip.GzipFile(f"{out}/freqtrade.json.gz", "wb", mtime=0) as g:
        g.write(text.encode())
    # freqtrade's download-data default, feather: pandas' to_feather of date (ns, UTC) and five
    # float64 columns, its buffers LZ4-framed (freqtrade's choice); ZSTD and plain beside it,
    # the plain one in batches of 100 rows
    times = [epoch(t) * 1000000000 for t, _ in bars]
    cols = [(name, [float(v[k]) for _, v in bars]) for k, name in enumerate(OHLCV[1:])]
    feather.write(f"{out}/freqtrade.feather", times, cols, codec="lz4")
    feather.write(f"{out}/freqtrade-zstd.feather", times, cols, codec="zstd")
    feather.write(f"{out}/freqtrade-plain.feather", times, cols, rows_per_batch=100)
    # yfinance's download(...).to_csv(): three header rows (Price with the fields, Ticker, the
    # index's name) before the bars, columns in yfinance's order
    write(f"{out}/yfinance.csv", [["Price", "Close", "High", "Low", "Open", "Volume"],
                                  ["Ticker"] + ["BTC-USD"] * 5,
                                  ["Date" if daily else "Datetime", "", "", "", "", ""]] +
          [[t.strftime("%Y-%m-%d") if daily else t.strftime("%Y-%m-%d %H:%M:%S+00:00"),
            v[3], v[1], v[2], v[0], v[4]] for t, v in bars])
    # no volume: the same prices, volume NaN for the strategy
    write(f"{out}/no-volume.csv", [["date", "open", "high", "low", "close"]] +
          [[t.strftime(day)] + v[:4] for t, v in bars])


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    os.makedirs(sys.argv[2], exist_ok=True)
    layouts(read_bars(sys.argv[1]), sys.argv[2])


if __name__ == "__main__":
    main()
