#!/usr/bin/python3
"""check_bt_docs.py TRADES BARS [readme] - the trades of the moving-average cross of
backtesting.py's documentation (strategies/bt_docs_smacross.py), replayed at zero cost on the GOOG
daily bars it ships (goog_daily.csv), against the figures its documentation and test suite
publish for the same data (Backtest(GOOG, SmaCross, finalize_trades=True): 66 trades, ...).
backtesting.py closes the trade still open at the end at the last bar's open; the replay marks it
at the last close, so that one trade is taken at the open here. With readme, the trades of its
README's example (strategies/bt_readme_smacross.py: 10 and 20 bars, exclusive orders, commission
0.2 %) against the table the README publishes, to its two decimals: that table was made by
backtesting.py of 2020, which counted only closed trades (the one open at the end is left out)
and charged the commission by moving the entry price against the trade, entry * (1 + side *
commission), so a trade's return is side * (exit / that price - 1); its exposure and expectancy
were defined otherwise then and are not compared. Exits 1 on a difference."""
import csv
import sys

import numpy as np

PUBLISHED = {  # backtesting.py's test_compute_stats, "also used on the website"
    '# Trades': 66,
    'Win Rate [%]': 46.96969696969697,
    'Best Trade [%]': 53.59595229490424,
    'Worst Trade [%]': -18.39887353835481,
    'Avg. Trade [%]': 2.531715975158555,
    'Profit Factor': 2.167945974262033,
    'Expectancy [%]': 3.2748078066748834,
    'Exposure Time [%]': 96.74115456238361,
}


README = {  # backtesting.py's README, "Results in:" (SmaCross(n1=10, n2=20), commission=.002)
    '# Trades': 93,
    'Win Rate [%]': 53.76,
    'Best Trade [%]': 57.12,
    'Worst Trade [%]': -16.63,
    'Avg. Trade [%]': 1.96,
    'Profit Factor': 2.13,
}
README_COMMISSION = 0.002


def trade_figures(r):
    """backtesting.py's figures of the trades' returns r (fractions): their count, win rate, best,
    worst, geometric mean and profit factor, as its compute_stats gives them."""
    return {
        '# Trades': len(r),
        'Win Rate [%]': (r > 0).mean() * 100,
        'Best Trade [%]': r.max() * 100,
        'Worst Trade [%]': r.min() * 100,
        'Avg. Trade [%]': (np.exp(np.log1p(r).mean()) - 1) * 100,
        'Profit Factor': r[r > 0].sum() / abs(r[r < 0].sum()),
    }


def readme(trades_csv):
    """The README's figures from the closed trades, at the 2020 commission rule."""
    trades = [t for t in csv.DictReader(open(trades_csv)) if t['open_at_end'] != '1']
    r = []
    for t in trades:
        side = 1 if t['side'] == 'long' else -1
        entry = float(t['entry_px']) * (1 + side * README_COMMISSION)
        r.append(side * (float(t['exit_px']) / entry - 1))
    got = trade_figures(np.array(r))
    bad = 0
    for k, want in README.items():
        same = round(got[k], 2) == want
        print('%s %-18s %.4f (published %.2f)' % ('ok  ' if same else 'FAIL', k, got[k], want))
        bad += not same
    return 1 if bad else 0


def main(trades_csv, bars_csv, which=None):
    if which == 'readme':
        return readme(trades_csv)
    trades = list(csv.DictReader(open(trades_csv)))
    bars = list(csv.DictReader(open(bars_csv)))
    at = {b['time']: i for i, b in enumerate(bars)}
    r = np.array([float(t['gross_return']) for t in trades])
    if trades and trades[-1]['open_at_end'] == '1':
        t = trades[-1]
        last_open = float(bars[-1]['open'])
        sign = 1 if t['side'] == 'long' else -1
        r[-1] = sign * (last_open / float(t['entry_px']) - 1)
    held = np.zeros(len(bars))
    for t in trades:
        held[at[t['entry_time']]:at.get(t['exit_time'], len(bars) - 1) + 1] = 1
    got = dict(trade_figures(r), **{'Expectancy [%]': r.mean() * 100,
                                    'Exposure Time [%]': held.mean() * 100})
    bad = 0
    for k, want in PUBLISHED.items():
        # trades.csv holds prices as the data gives them and returns to 10 significant digits
        same = np.isclose(got[k], want, rtol=1e-8, atol=0)
        print('%s %-18s %.12g (published %.12g)' % ('ok  ' if same else 'FAIL', k, got[k], want))
        bad += not same
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(*sys.argv[1:4]))
