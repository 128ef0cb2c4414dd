#!/usr/bin/python3
"""check_indicators.py - the sandbox's technical, ta and freqtrade helpers (sandbox/inside/shims)
against computations written here from each indicator's published definition, with plain
loops over freqtrade's 5-minute test candles (unittest_btc_5m.csv): technical.util's
resample_to_interval and resampled_merge, technical.indicators' supertrend and
chaikin_money_flow, ta's keltner_channel_wband (original version), donchian_channel_pband,
ichimoku_base_line and KSTIndicator, ta.utils.dropna, freqtrade.exchange.date_minus_candles.
Same NaNs, values within 1e-9 relative. Prints one line per check and exits 1 on any difference."""
import math
import os
import sys
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'sandbox', 'inside', 'shims'))

import pandas as pd  # noqa: E402

import ta  # noqa: E402
import technical.indicators as ti  # noqa: E402
from freqtrade.exchange import date_minus_candles  # noqa: E402
from technical.util import resample_to_interval, resampled_merge  # noqa: E402

TOL = 1e-9
NAN = float('nan')


def candles():
    d = pd.read_csv(os.path.join(HERE, 'unittest_btc_5m.csv'))
    d.insert(0, 'date', pd.to_datetime(d.pop('time'), utc=True))
    return d


def same(got, want):
    """None when equal (NaN where NaN), else the first difference."""
    got = list(got)
    if len(got) != len(want):
        return '%d values, %d expected' % (len(got), len(want))
    for i, (g, w) in enumerate(zip(got, want)):
        if isinstance(w, str) or w is None:
            if g != w:
                return 'row %d is %r, %r expected' % (i, g, w)
            continue
        g = float(g)
        if math.isnan(w):
            if not math.isnan(g):
                return 'row %d is %r, NaN expected' % (i, g)
        elif math.isnan(g) or abs(g - w) > TOL * max(1.0, abs(w)):
            return 'row %d is %r, %r expected' % (i, g, w)
    return None


def mean(xs):
    return sum(xs) / len(xs)


def window(xs, i, n):
    return xs[i - n + 1:i + 1] if i + 1 >= n else None


# --- the definitions, one plain loop each ------------------------------------------------------

def resampled_by_hand(d, minutes):
    """Each interval of `minutes` (by the clock) as open, high, low, close, volume, put on the
    candle dated interval start + minutes - the candles' step, carried forward to later candles."""
    t = [int(x.timestamp()) for x in d['date']]
    step = min(b - a for a, b in zip(t, t[1:]))
    groups = {}
    for i, s in enumerate(t):
        groups.setdefault(s - s % (minutes * 60), []).append(i)
    land = {}
    for start, rows in groups.items():
        land[start + minutes * 60 - step] = (d['open'][rows[0]], max(d['high'][r] for r in rows),
                                             min(d['low'][r] for r in rows), d['close'][rows[-1]],
                                             sum(d['volume'][r] for r in rows))
    out, last = [], (NAN,) * 5
    for s in t:
        last = land.get(s, last)
        out.append(last)
    return out


def supertrend_by_hand(d, period, mult):
    h, lo, c = d['high'].tolist(), d['low'].tolist(), d['close'].tolist()
    n = len(c)
    tr = [NAN] + [max(h[i] - lo[i], abs(h[i] - c[i - 1]), abs(lo[i] - c[i - 1])) for i in range(1, n)]
    atr = [NAN if i < period else mean(tr[i - period + 1:i + 1]) for i in range(n)]
    ub, lb, st = [0.0] * n, [0.0] * n, [0.0] * n
    for i in range(period, n):
        bu, bl = (h[i] + lo[i]) / 2 + mult * atr[i], (h[i] + lo[i]) / 2 - mult * atr[i]
        ub[i] = bu if (bu < ub[i - 1] or c[i - 1] > ub[i - 1]) else ub[i - 1]
        lb[i] = bl if (bl > lb[i - 1] or c[i - 1] < lb[i - 1]) else lb[i - 1]
    for i in range(period, n):
        if st[i - 1] == ub[i - 1]:
            st[i] = ub[i] if c[i] <= ub[i] else lb[i]
        elif st[i - 1] == lb[i - 1]:
            st[i] = lb[i] if c[i] >= lb[i] else ub[i]
    return st, [None if s <= 0 else ('down' if c[i] < s else 'up') for i, s in enumerate(st)]


def cmf_by_hand(d, n):
    h, lo, c, v = (d[k].tolist() for k in ('high', 'low', 'close', 'volume'))
    mfv = [((c[i] - lo[i]) - (h[i] - c[i])) / (h[i] - lo[i]) * v[i] if h[i] != lo[i] else NAN
           for i in range(len(c))]
    out = []
    for i in range(len(c)):
        w = window(mfv, i, n)
        out.append(NAN if w is None or any(math.isnan(x) for x in w) else sum(w) / sum(window(v, i, n)))
    return out


def keltner_wband_by_hand(d, n):
    h, lo, c = d['high'].tolist(), d['low'].tolist(), d['close'].tolist()
    tp = [(h[i] + lo[i] + c[i]) / 3 for i in range(len(c))]
    up = [(4 * h[i] - 2 * lo[i] + c[i]) / 3 for i in range(len(c))]
    dn = [(-2 * h[i] + 4 * lo[i] + c[i]) / 3 for i in range(len(c))]
    out = []
    for i in range(len(c)):
        if i + 1 < n:
            out.append(NAN)
            continue
        out.append((mean(window(up, i, n)) - mean(window(dn, i, n))) / mean(window(tp, i, n)) * 100)
    return out


def donchian_pband_by_hand(d, n, offset):
    h, lo, c = d['high'].tolist(), d['low'].tolist(), d['close'].tolist()
    out = []
    for i in range(len(c)):
        if i + 1 < n:
            out.append(NAN)
            continue
        hi, low = max(window(h, i, n)), min(window(lo, i, n))
        out.append((c[i] - low) / (hi - low) if hi != low else NAN)
    return [NAN] * offset + out[:len(out) - offset] if offset else out


def ichimoku_base_by_hand(d, n):
    h, lo = d['high'].tolist(), d['low'].tolist()
    return [NAN if i + 1 < n else (max(window(h, i, n)) + min(window(lo, i, n))) / 2
            for i in range(len(h))]


def kst_diff_by_hand(d, rocs, windows, nsig):
    c = d['close'].tolist()
    fill = mean(c)  # ta fills the closes before the first with the whole series' mean
    kst = [0.0] * len(c)
    for weight, (r, w) in enumerate(zip(rocs, windows), start=1):
        rate = [(c[i] - (c[i - r] if i >= r else fill)) / (c[i - r] if i >= r else fill)
                for i in range(len(c))]
        for i in range(len(c)):
            kst[i] += weight * (NAN if i + 1 < w else mean(window(rate, i, w)))
    kst = [100 * k for k in kst]
    sig = []
    for i in range(len(c)):
        vals = [k for k in kst[max(0, i - nsig + 1):i + 1] if not math.isnan(k)]
        sig.append(mean(vals) if vals else NAN)
    return [k - s for k, s in zip(kst, sig)]


def main():
    d = candles()
    checks = []
    for minutes in (60, 15, 180):
        long = resample_to_interval(d, minutes)
        merged = resampled_merge(d, long, fill_na=True)
        want = resampled_by_hand(d, minutes)
        for k, col in enumerate(('open', 'high', 'low', 'close', 'volume')):
            checks.append(('technical.util resample %dm %s' % (minutes, col),
                           merged['resample_%d_%s' % (minutes, col)], [w[k] for w in want]))
    for period, mult in ((10, 3), (7, 2)):
        st, stx = ti.supertrend(d, period=period, multiplier=mult)
        want_st, want_stx = supertrend_by_hand(d, period, mult)
        checks.append(('technical supertrend(%d, %d) value' % (period, mult), st, want_st))
        checks.append(('technical supertrend(%d, %d) direction' % (period, mult), stx, want_stx))
    checks.append(('technical cmf(21)', ti.cmf(d, 21), cmf_by_hand(d, 21)))
    checks.append(('ta keltner_channel_wband(20)', ta.volatility.keltner_channel_wband(
        d['high'], d['low'], d['close'], window=20, window_atr=10, fillna=False,
        original_version=True), keltner_wband_by_hand(d, 20)))
    for n, off in ((10, 0), (20, 2)):
        checks.append(('ta donchian_channel_pband(%d, offset %d)' % (n, off),
                       ta.volatility.donchian_channel_pband(d['high'], d['low'], d['close'],
                                                            window=n, offset=off),
                       donchian_pband_by_hand(d, n, off)))
    checks.append(('ta ichimoku_base_line(9, 26)', ta.trend.ichimoku_base_line(
        d['high'], d['low'], window1=9, window2=26), ichimoku_base_by_hand(d, 26)))
    checks.append(('ta KSTIndicator kst_diff', ta.trend.KSTIndicator(
        close=d['close'], roc1=10, roc2=15, roc3=20, roc4=30, window1=10, window2=10, window3=10,
        window4=15, nsig=9).kst_diff(), kst_diff_by_hand(d, (10, 15, 20, 30), (10, 10, 10, 15), 9)))
    zero = d.head(6).copy()
    zero.loc[2, 'volume'] = 0.0
    checks.append(('ta.utils.dropna drops the row with a zero', ta.utils.dropna(zero).index,
                   [0, 1, 3, 4, 5]))
    at = datetime(2017, 11, 5, 9, 17, 30, tzinfo=timezone.utc)
    checks.append(('date_minus_candles', [date_minus_candles('5m', 1, at).timestamp(),
                                          date_minus_candles('1h', 3, at).timestamp()],
                   [datetime(2017, 11, 5, 9, 10, tzinfo=timezone.utc).timestamp(),
                    datetime(2017, 11, 5, 6, 0, tzinfo=timezone.utc).timestamp()]))
    bad = 0
    for name, got, want in checks:
        why = same(got, want)
        valid = sum(1 for w in want if w is not None and not (isinstance(w, float) and math.isnan(w)))
        print('%s %s: %d values%s' % ('ok  ' if why is None else 'FAIL', name, valid,
                                      '' if why is None else ' -- ' + why))
        bad += why is not None
    print('%d of %d checks match their definitions to %g' % (len(checks) - bad, len(checks), TOL))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
