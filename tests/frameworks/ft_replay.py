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

The per-trade callbacks, as backtesting calls them (should_exit, ft_stoploss_adjust,
_call_adjust_stop, dataprovider.get_analyzed_dataframe, strategy_safe_wrapper):

- each gets a copy of the open trade (Trade below: pair, open_rate, open_date_utc, is_short,
  stop_loss, initial_stop_loss, enter_tag, nr_of_successful_entries, max_rate, min_rate,
  calc_profit_ratio, ...; reading anything else is a refusal naming it), and an error raised in
  it gives the callback's default, as freqtrade's wrapper does; self.dp.get_analyzed_dataframe
  of the pair at the strategy's timeframe gives the analysed candles (signals unshifted) up to
  the one before the candle being decided, at most 1000, and nothing before the backtest;
- custom_stoploss (use_custom_stoploss and the strategy's own) on each candle of an open trade,
  while the stop is below the low (a short's above the high), with current_rate the high (a
  short's low), current_profit the profit there and current_time the candle's date; its answer
  (not None, 0, NaN or infinite) moves the stop to that rate * (1 -+ |answer|) only when that is
  tighter, and a moved stop makes a later hit trailing_stop_loss; the trailing stop then moves
  from the same rate with the custom answer as its distance unless trailing_stop_positive
  applies; a custom_stoploss naming after_fill is also called as the entry fills (rate and
  profit at the open rate, after_fill True), and its answer then moves the stop either way
  without marking it trailing;
- custom_exit (or the deprecated custom_sell) with use_exit_signal, on each candle where the
  side's exit signal is not set or its entry signal is, with current_rate the open and
  current_profit the profit there, after custom_stoploss and before the stop: a string answer
  is the exit reason (cut to 255 characters), any other true answer 'custom_exit'; it ignores
  exit_profit_only and fills at the open;
- confirm_trade_entry (the strategy's own) as _enter_trade calls it, before the trade exists:
  pair, the class's entry order type and time in force (order_types, order_time_in_force),
  amount a unit of the quote currency over the rate (the replay is amount-free), rate the
  candle's open, current_time its date, entry_tag and side; an answer that is not true refuses
  the entry (no trade, the candle's exits not checked), and an error gives True; freqtrade asks
  again on the next candle whose entry signal is set.

The deprecated names (sell_profit_only, sell_profit_offset, ignore_roi_if_buy_signal,
use_sell_signal) are read when the strategy's own class sets them, as freqtrade's resolver does.
Settings it refuses, by name: position_adjustment_enable, and the strategy's own
adjust_trade_position, confirm_trade_exit, custom_stake_amount,
custom_entry_price and custom_exit_price, and leverage in a class that can short (freqtrade's
futures or margin mode calls it; a long-only class runs in spot mode, which never does, as
get_valid_price_and_stake reads). stoploss_from_open and stoploss_from_absolute, which
strategies import from freqtrade.strategy, are this file's own, from strategy_helper.py."""
import copy
import csv
import inspect
import math
import os
import sys
from datetime import datetime, timezone

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
SHIMS = os.path.join(HERE, '..', '..', 'sandbox', 'inside', 'shims')
CUSTOM_TAG_MAX_LENGTH = 255  # constants.py: an exit reason's length
MAX_DATAFRAME_CANDLES = 1000  # data/dataprovider.py: the analysed frame's length in a backtest

class Refused(Exception):
    """A setting this replay (and the audit) does not run."""


# callbacks that change a trade's size, price or existence, which this replay does not run
REFUSED_CALLBACKS = ('adjust_trade_position', 'confirm_trade_exit',
                     'custom_stake_amount', 'custom_entry_price', 'custom_exit_price')


def stoploss_from_open(open_relative_stop, current_profit, is_short=False, leverage=1.0):
    """strategy_helper.py: the stop open_relative_stop away from the open price, as a distance
    from the current price (what custom_stoploss returns); 0 when that stop is beyond the price."""
    profit = current_profit / leverage
    if profit == (1 if is_short else -1):
        return 1
    if is_short:
        stop = -1 + (1 - open_relative_stop / leverage) / (1 - profit)
    else:
        stop = 1 - (1 + open_relative_stop / leverage) / (1 + profit)
    return max(stop * leverage, 0.0)


def stoploss_from_absolute(stop_rate, current_rate, is_short=False, leverage=1.0):
    """strategy_helper.py: the stop price stop_rate as a distance from current_rate, in [0, 1]."""
    if current_rate == 0:
        return 1
    stop = 1 - stop_rate / current_rate
    return max(min(-stop if is_short else stop, 1.0), 0.0) * leverage


def load_class(path):
    sys.path.insert(0, SHIMS)
    import freqtrade.strategy as fs
    fs.stoploss_from_open, fs.stoploss_from_absolute = stoploss_from_open, stoploss_from_absolute
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


def bars_timeframe(bars):
    """the bars' own step in freqtrade's notation."""
    sec = int((bars['date'].diff().dt.total_seconds().dropna()).min())
    for unit, size in (('d', 86400), ('h', 3600), ('m', 60)):
        if sec % size == 0:
            return '%d%s' % (sec // size, unit)
    raise Refused('bars %d seconds apart' % sec)


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
    """The open trade as freqtrade's LocalTrade shows it to the callbacks (persistence/
    trade_model.py), amount-free: profits are ratios. Reading an attribute it does not model is
    a refusal naming it, never a silent default."""

    def __init__(self, side, rate, date, sl, tag='', fee=0.0):
        self.pair, self.is_short, self.open_rate, self.open_date = PAIR, side < 0, rate, date
        self.enter_tag, self.fee_open, self.fee_close, self.leverage = tag or None, fee, fee, 1.0
        self.open_trade_value = rate * (1 + side * fee)  # _calc_open_trade_value, amount 1
        self.stop_loss = self.stop_loss_pct = None
        self.initial_stop_loss = self.initial_stop_loss_pct = None
        self.is_stop_loss_trailing = False
        self.max_rate = self.min_rate = None
        self.nr_of_successful_entries, self.nr_of_successful_exits = 1, 0
        self.is_open, self.has_open_orders, self.liquidation_price = True, False, None
        self.exit_reason = self.close_date = None
        self.adjust_stop_loss(rate, sl, initial=True)

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        raise Refused('trade.%s in a callback' % name)

    side = property(lambda self: -1 if self.is_short else 1)
    open_date_utc = property(lambda self: self.open_date.astimezone(timezone.utc))
    trade_direction = property(lambda self: 'short' if self.is_short else 'long')
    entry_side = property(lambda self: 'sell' if self.is_short else 'buy')
    exit_side = property(lambda self: 'buy' if self.is_short else 'sell')

    def calc_profit_ratio(self, rate):
        """calc_profit_ratio: the close leg's value (calc_close_trade_value, spot) over the
        open leg's, rounded to 8 decimals."""
        close_value = rate * (1 - self.side * self.fee_close)
        r = (close_value / self.open_trade_value - 1 if self.side > 0
             else 1 - close_value / self.open_trade_value)
        return float('%.8f' % r)

    ratio = calc_profit_ratio

    def adjust_min_max_rates(self, high, low):
        self.max_rate = max(high, self.max_rate or self.open_rate)
        self.min_rate = min(low, self.min_rate or self.open_rate)

    def adjust_stop_loss(self, price, stoploss, initial=False, allow_refresh=False):
        """adjust_stop_loss: the stop at price * (1 -+ |stoploss|); set once (initial), then
        moved only towards the price (a move marks the stop trailing), or either way with
        allow_refresh (after an entry fill, not marked)."""
        if stoploss is None or (initial and self.stop_loss):
            return
        new = float(price * (1 - self.side * abs(stoploss)))
        if self.initial_stop_loss_pct is None:
            self.stop_loss, self.stop_loss_pct = new, -abs(stoploss)
            self.initial_stop_loss, self.initial_stop_loss_pct = new, -abs(stoploss)
        elif allow_refresh or self.side * (new - self.stop_loss) > 0:
            if not allow_refresh:
                self.is_stop_loss_trailing = True
            self.stop_loss, self.stop_loss_pct = new, -abs(stoploss)


def overrides(st, base, name):
    """The strategy's own classes define name (freqtrade's check_override)."""
    for c in type(st).__mro__:
        if c is base:
            return False
        if name in c.__dict__:
            return True
    return False


def safe_call(fn, default, **kw):
    """strategy_safe_wrapper: the callback gets a copy of the trade, and an error in it gives
    the default; a refusal of this replay passes through."""
    kw['trade'] = copy.deepcopy(kw['trade'])
    try:
        return fn(**kw)
    except Refused:
        raise
    except Exception:
        return default


class Rules:
    """The strategy's exit settings and per-trade callbacks, as interface.py's should_exit,
    ft_stoploss_adjust and ft_stoploss_reached apply them on a candle."""

    def __init__(self, st, base):
        self.st = st
        self.use_exit = bool(setting(st, base, 'use_exit_signal', 'use_sell_signal'))
        self.profit_only = bool(setting(st, base, 'exit_profit_only', 'sell_profit_only'))
        self.profit_offset = float(setting(st, base, 'exit_profit_offset', 'sell_profit_offset') or 0.0)
        self.ignore_roi = bool(setting(st, base, 'ignore_roi_if_entry_signal', 'ignore_roi_if_buy_signal'))
        self.roi = sorted((int(k), float(v)) for k, v in (st.minimal_roi or {}).items())
        self.sl = float(st.stoploss)
        self.ts = bool(st.trailing_stop)
        self.ts_pos = getattr(st, 'trailing_stop_positive', None)
        self.ts_off = float(getattr(st, 'trailing_stop_positive_offset', 0.0) or 0.0)
        self.ts_only = bool(getattr(st, 'trailing_only_offset_is_reached', False))
        self.custom_stop = st.custom_stoploss if (
            st.use_custom_stoploss and overrides(st, base, 'custom_stoploss')) else None
        # the resolver: a custom_stoploss naming after_fill is also called when the entry fills
        self.after_fill = bool(self.custom_stop) and 'after_fill' in inspect.getfullargspec(
            st.custom_stoploss).args
        exit_cb = 'custom_exit' if overrides(st, base, 'custom_exit') else 'custom_sell'
        self.custom_exit = getattr(st, exit_cb) if overrides(st, base, exit_cb) else None
        self.confirm = st.confirm_trade_entry if overrides(st, base, 'confirm_trade_entry') else None

    def confirm_entry(self, rate, now, tag, side):
        """confirm_trade_entry's answer for an entry at rate on the candle now (True without
        one): _enter_trade's arguments, strategy_safe_wrapper's default True on an error."""
        if not self.confirm:
            return True
        types = getattr(self.st, 'order_types', None) or {}
        tif = getattr(self.st, 'order_time_in_force', None) or {}
        try:
            ok = self.confirm(pair=PAIR, order_type=types.get('entry', 'limit'), amount=1.0 / rate,
                              rate=rate, time_in_force=tif.get('entry', 'GTC'), current_time=now,
                              entry_tag=tag or None, side='short' if side < 0 else 'long')
        except Refused:
            raise
        except Exception:
            ok = True
        return bool(ok)

    def stop_adjust(self, tr, rate, now, profit, low=None, high=None, after_fill=False):
        """ft_stoploss_adjust: the custom stop (called while the stop is on the right side of
        the candle, with the candle's best price and its profit), then the trailing stop, each
        moving the stop as adjust_stop_loss moves it."""
        if after_fill and not self.after_fill:
            return
        value = self.sl
        ok = tr.stop_loss < (low or rate) if not tr.is_short else tr.stop_loss > (high or rate)
        bound = low if tr.is_short else high
        bound_profit = profit if not bound else tr.calc_profit_ratio(bound)
        if self.custom_stop and ok:
            v = safe_call(self.custom_stop, None, pair=tr.pair, trade=tr, current_time=now,
                          current_rate=bound or rate, current_profit=bound_profit,
                          after_fill=after_fill)
            if v and not (math.isnan(v) or math.isinf(v)):
                value = v
                tr.adjust_stop_loss(bound or rate, value, allow_refresh=after_fill)
        if self.ts and ok and not (self.ts_only and bound_profit < self.ts_off):
            if self.ts_pos is not None and bound_profit > self.ts_off:
                value = self.ts_pos
            tr.adjust_stop_loss(bound or rate, value)

    def exit_reason(self, tr, now, o, h, lo, enter, ex, xtag):
        """should_exit on a candle (open o, high h, low lo): the first of exit signal or custom
        exit, stop_loss, roi, trailing_stop_loss; None when none applies."""
        best = lo if tr.is_short else h
        profit = tr.calc_profit_ratio(o)
        tr.adjust_min_max_rates(h, lo)
        self.stop_adjust(tr, o, now, profit, lo, h)
        hit = tr.stop_loss >= lo if not tr.is_short else tr.stop_loss <= h
        dur = int((now.timestamp() - tr.open_date_utc.timestamp()) // 60)
        step = [r for m, r in self.roi if m <= dur]
        roi = bool(step) and not (enter and self.ignore_roi) and tr.calc_profit_ratio(best) > step[-1]
        if self.use_exit:
            if ex and not enter:
                if not self.profit_only or profit > self.profit_offset:
                    return xtag or 'exit_signal'
            elif self.custom_exit:
                why = safe_call(self.custom_exit, False, pair=tr.pair, trade=tr, current_time=now,
                                current_rate=o, current_profit=profit)
                if why:
                    return (why[:CUSTOM_TAG_MAX_LENGTH] if isinstance(why, str) else '') or 'custom_exit'
        if hit and not tr.is_stop_loss_trailing:
            return 'stop_loss'
        if roi:
            return 'roi'
        if hit:
            return 'trailing_stop_loss'
        return None


def backtest(st, d, base, fee=0.0):
    """freqtrade's backtest of st over the candles d (with its signal columns), fee per side:
    the trades."""
    n = len(d)
    el, xl = column(d, ('enter_long', 'buy')), column(d, ('exit_long', 'sell'))
    es = column(d, ('enter_short',)) if st.can_short else np.zeros(n, dtype=bool)
    xs = column(d, ('exit_short',)) if st.can_short else np.zeros(n, dtype=bool)
    rules = Rules(st, base)
    start = int(st.startup_candle_count or 0)
    etag, xtag = tags(d, 'enter_tag'), tags(d, 'exit_tag')
    dates = [t.to_pydatetime() for t in d['date']]
    o, h, lo = d['open'].to_numpy(), d['high'].to_numpy(), d['low'].to_numpy()
    trades, tr = [], None
    for k in range(start + 1, n):
        p = k - 1  # the shifted signals: the candle before
        st.dp.cut = k  # get_analyzed_dataframe: the analysed candles before this one
        if tr is None and k < n - 1:
            side = 1 if el[p] and not (xl[p] or es[p]) else -1 if es[p] and not (xs[p] or el[p]) else 0
            if side and not rules.confirm_entry(float(o[k]), dates[k], etag[p], side):
                side = 0
            if side:
                tr = Trade(side, float(o[k]), dates[k], rules.sl, etag[p], fee)
                rules.stop_adjust(tr, tr.open_rate, dates[k], tr.calc_profit_ratio(tr.open_rate),
                                  after_fill=True)
        if tr is None:
            continue
        enter, ex = (el[p], xl[p]) if not tr.is_short else (es[p], xs[p])
        why = rules.exit_reason(tr, dates[k], float(o[k]), float(h[k]), float(lo[k]), enter, ex, xtag[p])
        if why:
            trades.append((tr.open_date, dates[k], tr.side, why, tr.enter_tag or ''))
            tr = None
    if tr is not None:
        trades.append((tr.open_date, dates[n - 1], tr.side, 'force_exit', tr.enter_tag or ''))
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


class RunMode:
    """dp.runmode: a backtest's (enums/runmode.py)."""
    value, name = 'backtest', 'BACKTEST'


class Provider:
    """self.dp for the replay: the pair's own bars as candles of any timeframe it asks for."""

    def __init__(self, bars, tf):
        self.bars, self.tf = bars, tf
        self.analysed, self.cut = None, None
        self.runmode = RunMode()

    def get_analyzed_dataframe(self, pair, timeframe):
        """data/dataprovider.py in backtesting: the strategy's analysed candles (its own pair and
        timeframe, nothing before they are analysed) up to the one before the candle being
        decided, the last MAX_DATAFRAME_CANDLES of them."""
        if self.analysed is None or pair != PAIR or timeframe != self.tf:
            return pd.DataFrame(), datetime.fromtimestamp(0, timezone.utc)
        k = len(self.analysed) if self.cut is None else self.cut
        df = self.analysed.iloc[max(0, k - MAX_DATAFRAME_CANDLES):k]
        when = self.analysed['date'].iloc[min(k, len(self.analysed) - 1)].to_pydatetime()
        return df, when

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
    bars = read_bars(bars_csv)
    tf = cls.timeframe or bars_timeframe(bars)  # none in the class: the configured, the data's
    st = cls({'timeframe': tf, 'stake_currency': 'QUOTE', 'runmode': 'backtest'})
    st.timeframe = tf
    st.ft_load_hyper_params({})
    if getattr(st, 'position_adjustment_enable', False):
        raise Refused('position_adjustment_enable')
    for name in REFUSED_CALLBACKS:
        if overrides(st, base, name):
            raise Refused(name)
    # get_valid_price_and_stake calls leverage only off spot; shorting needs futures or margin
    if st.can_short and overrides(st, base, 'leverage'):
        raise Refused('leverage')
    d = candles(bars, st.timeframe)
    meta = {'pair': PAIR}
    st.dp = Provider(bars, st.timeframe)
    if any((p[0] if isinstance(p, (tuple, list)) else p) != PAIR for p in st.informative_pairs()):
        raise Refused('informative pairs of another symbol')
    x = indicators(st, d.copy(), meta)
    x = st.populate_entry_trend(x, meta)
    x = st.populate_exit_trend(x, meta).reset_index(drop=True)
    st.dp.analysed = x.copy()
    return backtest(st, x, base, fee), st.timeframe


# --- the audit's trades.csv, read in freqtrade's terms --------------------------------------

REASONS = {'signal': 'exit_signal', 'stop_loss': 'stop_loss', 'roi': 'roi',
           'trailing_stop': 'trailing_stop_loss', 'end': 'force_exit', 'custom_exit': 'custom_exit'}


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
        if why in ('exit_signal', 'custom_exit') and r.get('exit_tag'):
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
