#!/usr/bin/python3
"""ft_replay.py [--fee F] STRATEGY BARS [TRADES] - freqtrade's backtest of a strategy, trade for trade,
written again from freqtrade's own source (optimize/backtesting.py: backtest, backtest_loop,
check_for_trade_entry, _get_ohlcv_as_lists, handle_left_open; strategy/interface.py:
should_exit, ft_stoploss_adjust, ft_stoploss_reached, min_roi_reached; persistence/
trade_model.py: adjust_stop_loss), apart from the sandbox's adapter and the host's replay. It
lists the trades (entry time, exit time, side, exit reason, entry tag) freqtrade's rules give,
with the fee F per side (a fraction, freqtrade's fee: 0.001 for 10 bp; 0 when not given),
one trade at a time, on the strategy's candles (BARS at its timeframe, or resampled to it by
the clock, complete candles only); with TRADES (an audit's trades.csv on the same BARS) it
compares them entry for entry and exits 1 on any difference.

The strategy's columns come from its own populate_* methods, run with the sandbox's stand-ins
for freqtrade's base class, talib and qtpylib (sandbox/inside/shims, imported as plain modules):
what is checked here is the backtest's rules, not the indicators (tests/frameworks/check_talib.py
checks those). The rules, as freqtrade's backtest applies them:

- a trade's profit at a rate is calc_profit_ratio's: the open leg's value with the fee
  (amount * open_rate * (1 + fee), a short's (1 - fee)), the close leg's (amount * rate *
  (1 - fee), a short's (1 + fee)), close over open - 1 (a short's 1 - close over open), rounded
  to 8 decimals; every rule below that reads a profit reads this one;

- the startup candles (startup_candle_count) are dropped, then every signal column is shifted
  by one candle and the first row dropped: row k is candle k's open with candle k-1's signals;
- on a row, with no trade open and not on the last row, an entry: long when enter_long is set
  and neither exit_long nor enter_short, short likewise (can_short only); filled at the open,
  stamped with the row's date; the new trade's exits are checked on the same row;
- an open trade's exits on a row, the first that applies: exit_signal (use_exit_signal, the
  side's exit set and its entry not, and with exit_profit_only the profit at the row's open
  above exit_profit_offset), stop_loss (the stop at or above the low, a long's), roi (the profit
  at the high above the ROI table's step for the minutes held at the row's date, unless
  ignore_roi_if_entry_signal and the side's entry column is set on the row), trailing_stop_loss
  (a stop the trailing moved); the trailing stop is moved with the row's high before the low is
  compared, and only while the stop is below the low; an exit is stamped with the row's date;
- a trade still open after the last row is closed on it, force_exit;
- a trade's enter_tag is the enter_tag column on its entry row (shifted as the signals are); an
  exit signal's reason is the row's exit_tag when that is a non-empty string (_get_exit_for_signal).

The deprecated names (sell_profit_only, sell_profit_offset, ignore_roi_if_buy_signal,
use_sell_signal) are read when the strategy's own class sets them, as freqtrade's resolver does.
Settings it refuses, as the audit must: custom_stoploss, position_adjustment_enable."""
import csv
import os
import sys
from datetime import datetime, timezone

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
SHIMS = os.path.join(HERE, '..', '..', 'sandbox', 'inside', 'shims')


class Refused(Exception):
    """A setting this replay (and the audit) does not run."""


def load_class(path):
    sys.path.insert(0, SHIMS)
    import freqtrade.strategy as fs
    g = {'__name__': 'strategy'}
    exec(compile(open(path).read(), path, 'exec'), g)
    own = [v for v in g.values() if isinstance(v, type) and issubclass(v, fs.IStrategy)
           and v is not fs.IStrategy and v.__module__ == 'strategy']
    own = [c for c in own if not any(o is not c and issubclass(o, c) for o in own)]
    if len(own) != 1:
        raise Refused('%d strategy classes' % len(own))
    return own[0], fs.IStrategy


def setting(st, base, new, old):
    for c in type(st).__mro__:
        if c is base:
            break
        if old in c.__dict__:
            return getattr(st, old)
    return getattr(st, new)


def read_bars(path):
    d = pd.read_csv(path)
    d['date'] = pd.to_datetime(d['time'], utc=True)
    return d[['date', 'open', 'high', 'low', 'close', 'volume']].reset_index(drop=True)


def candles(bars, tf):
    """bars as candles of tf (freqtrade's notation), complete ones only."""
    sec = int(tf[:-1]) * {'m': 60, 'h': 3600, 'd': 86400, 'w': 604800}[tf[-1]]
    step = int((bars['date'].diff().dt.total_seconds().dropna()).min())
    if step == sec:
        return bars
    t = bars['date'].astype('int64') // 10**9
    key = t - t % sec
    g = bars.groupby(key, sort=True).agg({'open': 'first', 'high': 'max', 'low': 'min',
                                          'close': 'last', 'volume': 'sum'})
    keys = g.index.to_numpy()
    g = g[keys + sec <= int(t.iloc[-1]) + step].reset_index(drop=True)
    g.insert(0, 'date', pd.to_datetime(keys[:len(g)], unit='s', utc=True))
    return g


def tags(d, name):
    """The column's tag on each row: a non-empty string, else ''."""
    if name not in d.columns:
        return [''] * len(d)
    return [v if isinstance(v, str) else '' for v in d[name].tolist()]


def column(d, names):
    for name in names:
        if name in d.columns:
            return (pd.to_numeric(d[name], errors='coerce').fillna(0).to_numpy() == 1)
    return np.zeros(len(d), dtype=bool)


class Trade:
    def __init__(self, side, rate, date, sl, tag='', fee=0.0):
        self.side, self.open_rate, self.open_date, self.tag = side, rate, date, tag
        self.fee = fee
        self.open_value = rate * (1 + side * fee)  # _calc_open_trade_value, amount 1
        self.stop_loss = rate * (1 - side * abs(sl))
        self.initial_stop_loss = self.stop_loss
        self.trailing = False

    def ratio(self, rate):
        """calc_profit_ratio: the close leg's value (calc_close_trade_value, spot) over the
        open leg's, rounded to 8 decimals."""
        close_value = rate * (1 - self.side * self.fee)
        r = close_value / self.open_value - 1 if self.side > 0 else 1 - close_value / self.open_value
        return float('%.8f' % r)

    def adjust(self, price, sl):
        new = price * (1 - self.side * abs(sl))
        if self.side * (new - self.stop_loss) > 0:
            self.stop_loss = new
            self.trailing = True


def backtest(st, d, base, fee=0.0):
    """freqtrade's backtest of st over the candles d (with its signal columns), fee per side:
    the trades."""
    n = len(d)
    el, xl = column(d, ('enter_long', 'buy')), column(d, ('exit_long', 'sell'))
    es = column(d, ('enter_short',)) if st.can_short else np.zeros(n, dtype=bool)
    xs = column(d, ('exit_short',)) if st.can_short else np.zeros(n, dtype=bool)
    use_exit = bool(setting(st, base, 'use_exit_signal', 'use_sell_signal'))
    profit_only = bool(setting(st, base, 'exit_profit_only', 'sell_profit_only'))
    profit_offset = float(setting(st, base, 'exit_profit_offset', 'sell_profit_offset') or 0.0)
    ignore_roi = bool(setting(st, base, 'ignore_roi_if_entry_signal', 'ignore_roi_if_buy_signal'))
    roi = sorted((int(k), float(v)) for k, v in (st.minimal_roi or {}).items())
    sl = float(st.stoploss)
    ts = bool(st.trailing_stop)
    ts_pos = getattr(st, 'trailing_stop_positive', None)
    ts_off = float(getattr(st, 'trailing_stop_positive_offset', 0.0) or 0.0)
    ts_only = bool(getattr(st, 'trailing_only_offset_is_reached', False))
    start = int(st.startup_candle_count or 0)
    etag, xtag = tags(d, 'enter_tag'), tags(d, 'exit_tag')
    dates, o, h, lo = d['date'].tolist(), d['open'].to_numpy(), d['high'].to_numpy(), d['low'].to_numpy()
    trades, tr = [], None
    for k in range(start + 1, n):
        p = k - 1  # the shifted signals: the candle before
        last = k == n - 1
        if tr is None and not last:
            side = 1 if el[p] and not (xl[p] or es[p]) else -1 if es[p] and not (xs[p] or el[p]) else 0
            if side:
                tr = Trade(side, o[k], dates[k], sl, etag[p], fee)
        if tr is None:
            continue
        enter, ex = (el[p], xl[p]) if tr.side > 0 else (es[p], xs[p])
        worst, best = (lo[k], h[k]) if tr.side > 0 else (h[k], lo[k])
        if ts and tr.side * (worst - tr.stop_loss) > 0:
            bp = tr.ratio(best)
            if not (ts_only and bp < ts_off):
                v = ts_pos if ts_pos is not None and bp > ts_off else sl
                tr.adjust(best, v)
        why = None
        if use_exit and ex and not enter and (not profit_only or tr.ratio(o[k]) > profit_offset):
            why = xtag[p] or 'exit_signal'
        elif tr.side * (worst - tr.stop_loss) <= 0 and not tr.trailing:
            why = 'stop_loss'
        else:
            dur = int((dates[k] - tr.open_date).total_seconds() // 60)
            step = [r for m, r in roi if m <= dur]
            if step and not (enter and ignore_roi) and tr.ratio(best) > step[-1]:
                why = 'roi'
            elif tr.side * (worst - tr.stop_loss) <= 0:
                why = 'trailing_stop_loss'
        if why:
            trades.append((tr.open_date, dates[k], tr.side, why, tr.tag))
            tr = None
    if tr is not None:
        trades.append((tr.open_date, dates[n - 1], tr.side, 'force_exit', tr.tag))
    return trades


# --- informative timeframes of the pair, as freqtrade's data provider and helpers give them ---

PAIR = 'ASSET/QUOTE'


def tf_minutes(tf):
    return int(tf[:-1]) * {'m': 1, 'h': 60, 'd': 1440, 'w': 10080}[tf[-1]]


def merge_closed(frame, inf, tf, tf_inf, ffill=True, append_timeframe=True, date_column='date',
                 suffix=None):
    """merge_informative_pair by its definition: the informative candle starting at T is put on
    the strategy candle starting at T + (its length - the strategy candle's), the one that closes
    with it (on none when the data lacks that candle), and with ffill carried forward on the
    strategy's candles until the next one is put."""
    inf = inf.copy()
    tag = tf_inf if append_timeframe else suffix
    if tag:
        inf.columns = ['%s_%s' % (c, tag) for c in inf.columns]
        date_column = '%s_%s' % (date_column, tag)
    known = (inf[date_column] + pd.Timedelta(minutes=tf_minutes(tf_inf) - tf_minutes(tf))).tolist()
    row_of = {t: j for j, t in enumerate(known)}
    k, last = [], -1
    for t in frame['date'].tolist():
        j = row_of.get(t, -1)
        last = j if j >= 0 else (last if ffill else -1)
        k.append(last)
    k = np.asarray(k, dtype=int)
    out = frame.reset_index(drop=True).copy()
    for c in inf.columns:
        v = inf[c].to_numpy()
        col = pd.Series(v[np.clip(k, 0, None)] if len(v) else np.full(len(k), np.nan))
        out[c] = col.where(k >= 0)
    return out


class Provider:
    """self.dp for the replay: the pair's own bars as candles of any timeframe it asks for."""

    def __init__(self, bars, tf):
        self.bars, self.tf = bars, tf

    def current_whitelist(self):
        return [PAIR]

    def market(self, pair):
        return {'base': 'ASSET', 'quote': 'QUOTE'} if pair == PAIR else None

    def get_pair_dataframe(self, pair, timeframe=None, candle_type=''):
        if pair != PAIR:
            raise Refused('informative pair %s' % pair)
        return candles(self.bars, timeframe or self.tf).copy()


def indicators(st, d, meta):
    """freqtrade's advise_indicators: each @informative method on its own candles, its columns
    renamed {column}_{timeframe} and merged as merge_informative_pair merges, then
    populate_indicators."""
    for name in dir(type(st)):
        fn = getattr(type(st), name)
        for inf in (getattr(fn, '_ft_informative', None) or []) if callable(fn) else []:
            if inf.asset or inf.fmt:
                raise Refused('@informative with an asset or a format')
            frame = fn(st, st.dp.get_pair_dataframe(PAIR, inf.timeframe), {'pair': PAIR})
            d = merge_closed(d, frame, st.timeframe, inf.timeframe, ffill=inf.ffill,
                             append_timeframe=True)
    return st.populate_indicators(d, meta)


def strategy_trades(path, bars_csv, fee=0.0):
    cls, base = load_class(path)
    scope = cls.populate_indicators.__globals__
    if 'merge_informative_pair' in scope:
        scope['merge_informative_pair'] = merge_closed
    st = cls({'timeframe': cls.timeframe, 'stake_currency': 'QUOTE', 'runmode': 'backtest'})
    st.ft_load_hyper_params({})
    if st.use_custom_stoploss and 'custom_stoploss' in dir(cls):
        raise Refused('custom_stoploss')
    if getattr(st, 'position_adjustment_enable', False):
        raise Refused('position_adjustment_enable')
    bars = read_bars(bars_csv)
    d = candles(bars, st.timeframe)
    meta = {'pair': PAIR}
    st.dp = Provider(bars, st.timeframe)
    if any((p[0] if isinstance(p, (tuple, list)) else p) != PAIR for p in st.informative_pairs()):
        raise Refused('informative pairs of another symbol')
    x = indicators(st, d.copy(), meta)
    x = st.populate_entry_trend(x, meta)
    x = st.populate_exit_trend(x, meta).reset_index(drop=True)
    return backtest(st, x, base, fee), st.timeframe


# --- the audit's trades.csv, read in freqtrade's terms --------------------------------------

REASONS = {'signal': 'exit_signal', 'stop_loss': 'stop_loss', 'roi': 'roi',
           'trailing_stop': 'trailing_stop_loss', 'end': 'force_exit'}


def epoch(s):
    return int(datetime.strptime(s, '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=timezone.utc).timestamp())


def audit_trades(trades_csv, bars_csv, tf):
    """trades.csv's trades as freqtrade stamps them, each on a candle's date: the entry on the
    candle its bar opens (the first bar after the candle with the signal, which is the next
    candle's first when bars are missing), an exit inside a bar on the candle holding that bar,
    an exit at a bar's open on the candle holding that bar, the trade open at the end on the
    last candle."""
    sec = int(tf[:-1]) * {'m': 60, 'h': 3600, 'd': 86400, 'w': 604800}[tf[-1]]
    bars = list(csv.DictReader(open(bars_csv)))
    t = [epoch(b['time']) for b in bars]
    op = {epoch(b['time']): float(b['open']) for b in bars}
    step = min(b - a for a, b in zip(t, t[1:]))
    last_candle = (t[-1] + step) // sec * sec - sec
    out = []
    for r in csv.DictReader(open(trades_csv)):
        why = REASONS.get(r['exit_reason'], r['exit_reason'])
        if why == 'exit_signal' and r.get('exit_tag'):
            why = r['exit_tag']
        ex = epoch(r['exit_time'])
        if why == 'force_exit':
            ex = last_candle
        elif why != 'exit_signal':
            px, at_open = float(r['exit_px']), op.get(ex)
            if at_open is None or abs(px - at_open) > 1e-12 * max(1.0, abs(px)):
                ex -= step  # inside the bar before: stamped by the candle that holds it
        ex -= ex % sec
        side = 1 if r['side'] == 'long' else -1
        entry = epoch(r['entry_time'])
        out.append((entry - entry % sec, ex, side, why, r.get('entry_tag', '')))
    return out


def as_rows(trades):
    return [(int(a.timestamp()), int(b.timestamp()), s, w, g) for a, b, s, w, g in trades]


def stamp(x):
    return datetime.fromtimestamp(x, timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')


def compare(want, got):
    """(same, different, lines): entry for entry."""
    w, g = {x[0]: x for x in want}, {x[0]: x for x in got}
    lines, same = [], 0
    for e in sorted(set(w) | set(g)):
        a, b = w.get(e), g.get(e)
        if a == b:
            same += 1
            continue
        show = lambda x: '-' if x is None else '%s..%s %s %s [%s]' % (
            stamp(x[0]), stamp(x[1]), 'long' if x[2] > 0 else 'short', x[3], x[4])
        lines.append('freqtrade %s | audit %s' % (show(a), show(b)))
    return same, len(lines), lines


def main(argv):
    fee = 0.0
    if len(argv) > 2 and argv[1] == '--fee':
        try:
            fee = float(argv[2])
        except ValueError:
            fee = -1.0
        if not 0 <= fee < 1:
            print('ft_replay.py: --fee wants a fraction in [0, 1), not %s' % argv[2], file=sys.stderr)
            return 2
        argv = argv[:1] + argv[3:]
    if len(argv) not in (3, 4):
        print(__doc__.split('\n\n')[0], file=sys.stderr)
        return 2
    try:
        trades, tf = strategy_trades(argv[1], argv[2], fee)
    except Refused as e:
        print('refused: %s' % e)
        return 3
    want = as_rows(trades)
    if len(argv) == 3:
        for a, b, s, w, g in want:
            print('%s,%s,%s,%s,%s' % (stamp(a), stamp(b), 'long' if s > 0 else 'short', w, g))
        return 0
    got = audit_trades(argv[3], argv[2], tf)
    same, diff, lines = compare(want, got)
    print('%d freqtrade trades, %d audit trades: %d the same, %d different'
          % (len(want), len(got), same, diff))
    for line in lines[:20]:
        print('  ' + line)
    return 1 if diff else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
