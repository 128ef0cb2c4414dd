"""sa_frameworks - a freqtrade IStrategy or a backtesting.py Strategy, audited as written: adapt()
finds the class in the upload's namespace and returns a signals(df, **params) that runs it by its
framework's rules into one position per bar (+1, -1, 0; a freqtrade class's with its candle's
entry and exit events, so the host enters again after a stop or ROI exit where freqtrade does),
the only thing that leaves the sandbox.
What a framework does that a position per bar cannot carry is refused with NotSupported, one
sentence naming it and what is supported."""
import sys

import numpy as np
import pandas as pd

PAIR = 'ASSET/QUOTE'
SUPPORTED_FREQTRADE = ('freqtrade strategies may use freqtrade.strategy (IStrategy, the parameter '
                       'classes with their buy_params, sell_params and parameter file), '
                       'freqtrade.persistence\'s types, freqtrade.exchange\'s timeframe helpers, '
                       'freqtrade.data.dataprovider, talib, talib.abstract, qtpylib '
                       '(freqtrade.vendor.qtpylib.indicators, technical.qtpylib), technical.util\'s '
                       'resampling helpers, technical.indicators\' supertrend and cmf, ta\'s '
                       'keltner_channel_wband, donchian_channel_pband, ichimoku_base_line and '
                       'KSTIndicator, pandas_ta\'s import (none of its indicators), numpy and pandas')


class NotSupported(ImportError):
    """What the audit cannot run, said in one sentence."""


# --- imports the sandbox names instead of failing on --------------------------------------------

UNSUPPORTED_MODULES = {
    'ta': None,  # the modules of ta, pandas_ta and technical the sandbox does not provide
    'pandas_ta': None,
    'technical': None,
    'finta': 'finta',
    'tulipy': 'tulipy',
    'freqtrade.freqai': 'FreqAI',
    'freqtrade': None,  # any other module of freqtrade, named as imported
}


class UnsupportedFinder:
    """A meta-path finder that answers an import of a library the sandbox does not provide with
    NotSupported naming it, instead of a bare ModuleNotFoundError."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        for mod, what in UNSUPPORTED_MODULES.items():
            if name == mod or name.startswith(mod + '.'):
                raise NotSupported('%s is not supported in the sandbox: %s'
                                   % (what or name, SUPPORTED_FREQTRADE))
        return None


def install():
    """Puts the finder at the end of sys.meta_path (a module that exists is found first)."""
    if UnsupportedFinder not in sys.meta_path:
        sys.meta_path.append(UnsupportedFinder)


# --- timeframes ---------------------------------------------------------------------------------

_UNITS = {'m': 60, 'h': 3600, 'd': 86400, 'w': 604800}


def timeframe_seconds(tf):
    """'5m' -> 300, freqtrade's notation; NotSupported for anything else."""
    s = str(tf).strip()
    if len(s) >= 2 and s[:-1].isdigit() and s[-1] in _UNITS and int(s[:-1]) > 0:
        return int(s[:-1]) * _UNITS[s[-1]]
    raise NotSupported('timeframe %r is not supported: use minutes, hours, days or weeks '
                       '(1m, 5m, 1h, 4h, 1d, 1w)' % (tf,))


def _bar_ns(index):
    """The data's bar: the smallest step between two bars (gaps make steps longer, never shorter)."""
    t = index.asi8
    if len(t) < 2:
        return None
    d = np.diff(t)
    d = d[d > 0]
    return int(d.min()) if len(d) else None


def candles(df, tf):
    """The bars as the strategy's candles when its timeframe is coarser than the data's, and for
    each bar the candle whose close it is at or after (-1 before the first). A candle is used from
    the bar that ends it, by the clock alone: the bars from its start to its end have happened, so
    a run cut at any bar sees the same candles up to it. Returns (frame, owner) or (df, None)."""
    if tf is None:
        return df, None
    tf_ns = timeframe_seconds(tf) * 1000000000
    bar = _bar_ns(df.index)
    if bar is None or bar == tf_ns:
        return df, None
    if tf_ns < bar:
        raise NotSupported('the strategy\'s timeframe %s is finer than the data\'s bars (%d s): give '
                           'it bars of %s or finer' % (tf, bar // 1000000000, tf))
    if tf_ns % bar:
        raise NotSupported('the strategy\'s timeframe %s is not a whole number of the data\'s bars '
                           '(%d s)' % (tf, bar // 1000000000))
    t = df.index.asi8
    g = df.groupby(t - t % tf_ns, sort=True)
    frame = g.agg({'open': 'first', 'high': 'max', 'low': 'min', 'close': 'last', 'volume': 'sum'})
    keys = frame.index.to_numpy(dtype=np.int64)
    done = keys + tf_ns <= t[-1] + bar
    frame, keys = frame[done], keys[done]
    frame.index = pd.DatetimeIndex(keys.view('datetime64[ns]'), name='time').tz_localize('UTC')
    owner = np.searchsorted(keys + tf_ns, t + bar, side='right') - 1
    return frame, owner


def spread(pos, owner, n):
    """Candle positions back onto the data's bars. A candle's events (freqtrade_positions) stay on
    its first bar only (the bar that ends it): the host's next open is the next candle's, as
    freqtrade's is; the candle's other bars carry its position alone."""
    if owner is None:
        return pos
    out = np.zeros(n, dtype=np.int8)
    ok = owner >= 0
    out[ok] = np.asarray(pos, dtype=np.int8)[owner[ok]]
    later = np.zeros(n, dtype=bool)
    later[1:] = owner[1:] == owner[:-1]
    out[later] = (out[later] + 1) % 3 - 1
    return out


# --- finding the class --------------------------------------------------------------------------

def _classes(g, base):
    own = [v for v in g.values() if isinstance(v, type) and issubclass(v, base) and v is not base and
           getattr(v, '__module__', None) == 'strategy']
    return [c for c in own if not any(o is not c and issubclass(o, c) for o in own)]


def adapt(g):
    """signals(df, **params) for the framework class the upload defines, or None when it defines
    none. NotSupported when it defines several, or when its framework is not imported."""
    fq = sys.modules.get('freqtrade.strategy')
    bt = sys.modules.get('backtesting')
    found = []
    if fq is not None:
        found += [('freqtrade', c) for c in _classes(g, fq.IStrategy)]
    if bt is not None:
        found += [('backtesting', c) for c in _classes(g, bt.Strategy)]
    if not found:
        return None
    if len(found) > 1:
        raise NotSupported('the file defines %d strategy classes (%s): the audit runs one strategy '
                           'a file' % (len(found), ', '.join(c.__name__ for _, c in found)))
    kind, cls = found[0]
    if kind == 'freqtrade':
        return lambda df, **params: run_freqtrade(cls, df, params)
    exclusive = False
    for b in bt._declared:
        if b.strategy is cls:
            exclusive = b.exclusive_orders
    return lambda df, **params: run_backtesting(cls, df, params, exclusive)


# --- freqtrade ----------------------------------------------------------------------------------

# The callbacks the audit does not call, each with what freqtrade does with its answer.
_CALLBACKS = {
    'custom_sell': 'the name custom_exit had before freqtrade 2022.5: rename it custom_exit',
    'custom_entry_price': 'a limit price for each entry, which freqtrade fills only if the '
                          'candle reaches it',
    'custom_exit_price': 'a limit price for each exit, which freqtrade fills only if the candle '
                         'reaches it',
    'confirm_trade_exit': 'freqtrade asks it before every exit (signal, ROI, stop, custom exit) '
                          'and keeps the trade open on a refusal',
    'adjust_trade_position': 'position adjustments: entries added to an open trade and parts '
                             'of it sold, each a new order',
    'custom_stake_amount': 'the stake of each entry; the audit trades one unit of notional',
    'order_filled': 'a call as each order fills, whose side effects later answers may read',
    'adjust_entry_price': 'a new price for an entry order still unfilled',
}


def _check_freqtrade(cls, st):
    """Every feature of the class the audit does not run, named in one NotSupported (the first
    reads '<Class>.<name> is not supported'), or nothing."""
    base = sys.modules['freqtrade.strategy'].IStrategy
    name_ = cls.__name__
    why = ['%s.%s is not supported (%s)' % (name_, cb, what) for cb, what in _CALLBACKS.items()
           if getattr(cls, cb, None) is not None and not hasattr(base, cb)]
    if getattr(cls, 'leverage', None) is not None and not hasattr(base, 'leverage') and st.can_short:
        why.append('%s.leverage is not supported: shorting (can_short) needs freqtrade\'s futures '
                   'or margin trading mode, where its backtest calls leverage for each entry and '
                   'sizes the trade by the answer; the audit trades one unit of notional, leverage '
                   '1. A long-only class runs in spot mode, where freqtrade never calls leverage'
                   % name_)
    for name in trade_calls(cls, st):
        if name == 'custom_stoploss' and _takes_after_fill(st):
            why.append('%s.custom_stoploss takes after_fill: freqtrade then calls it again as each '
                       'entry fills (after_fill=True) and lets that answer move the stop either way, '
                       'a call the audit does not make; without after_fill among its parameters '
                       'freqtrade does not make it either' % name_)
        elif LIVE and not CALLS:
            why.append('%s.%s is not supported in this run: it is a per-trade callback, answered '
                       'only where the host holds the trade and sends it bar by bar (a def of it in '
                       'the class body); set use_custom_stoploss = False and declare stoploss as a '
                       'constant, or give exits as exit_long and exit_short' % (name_, name))
    for pair in _informative_pair_names(st.informative_pairs()):
        if pair != PAIR:
            why.append(str(sys.modules['freqtrade.strategy.informative_decorator'].other_pair(
                pair, '%s.informative_pairs' % name_)))
            break
    if why:
        raise NotSupported('; '.join(why) + (
            '. The audit calls custom_stoploss, custom_exit and confirm_trade_entry on the trade it '
            'holds and reads minimal_roi, stoploss and trailing_stop as declared: audit the class '
            'without what is named' if len(why) > 1 or 'not supported (' in why[0] else ''))


# --- the per-trade callbacks (sbx_proto.h, the live replay's trade state and the answer) -------

# Whether this run is a live one (each bar decided as it comes), and whether its host sends the
# trade it holds before each bar and takes the callbacks' answers (both set by the run before the
# upload loads): a live run without the trade refuses a class with callbacks. The other runs (the
# full history, later starts, variants) give the class's signals, its callbacks not called.
LIVE = False
CALLS = False
# The class, its instance and the analysed frame of the last candles run (run_freqtrade), which
# the next bar's callbacks read: the frame up to the candle before the one asked about.
LAST = None
ASK_EXIT, ASK_STOP, ASK_ENTRY = 1, 2, 4
CALL_STOP, CALL_EXIT, CALL_REFUSED = 1, 2, 4
CALL_NAME_MAX = 32
TRADE_FORMAT = '=bBIqq6d'    # side, ask, entry bar, entry time, the bar's time, six float64s
CALL_FORMAT = '=BdB%ds' % CALL_NAME_MAX


def _takes_after_fill(st):
    """Whether custom_stoploss names after_fill, which makes freqtrade call it as the entry fills
    (its strategy resolver reads the signature so)."""
    import inspect
    try:
        return 'after_fill' in inspect.getfullargspec(st.custom_stoploss).args
    except TypeError:
        return False


def trade_calls(cls, st):
    """The per-trade callbacks the class defines that freqtrade calls: custom_stoploss (with
    use_custom_stoploss), custom_exit and confirm_trade_entry."""
    base = sys.modules['freqtrade.strategy'].IStrategy
    out = []
    if getattr(cls, 'custom_stoploss', None) is not None and st.use_custom_stoploss:
        out.append('custom_stoploss')
    if getattr(cls, 'custom_exit', None) is not None and not hasattr(base, 'custom_exit'):
        out.append('custom_exit')
    if getattr(cls, 'confirm_trade_entry', None) is not None and not hasattr(base, 'confirm_trade_entry'):
        out.append('confirm_trade_entry')
    return out


class LiveTrade:
    """The open trade as the host holds it, the fields freqtrade's callbacks read; what the host
    does not send (the stake, the orders, a database) is refused by name."""

    def __init__(self, side, entry_time, entry_px, stop, enter_tag):
        import datetime
        when = datetime.datetime.fromtimestamp(entry_time, datetime.timezone.utc)
        self.pair = PAIR
        self.is_short = side < 0
        self.trade_direction = 'short' if side < 0 else 'long'
        self.open_rate = entry_px
        self.open_date_utc = when
        self.open_date = when.replace(tzinfo=None)
        self.stop_loss = stop
        self.enter_tag = enter_tag
        self.nr_of_successful_entries = 1
        self.nr_of_successful_exits = 0
        self.leverage = 1.0
        self.is_open = True
        self.has_open_orders = False

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        raise NotSupported('trade.%s is not supported: the audit sends a callback the trade\'s side, '
                           'entry time, open_rate, stop_loss, enter_tag and its profit' % name)


def _entry_tag(d, entry_time):
    """The enter_tag of the candle whose signal the entry filled: the last one before its time."""
    if 'enter_tag' not in d.columns:
        return None
    before = d['date'].astype('int64').to_numpy() < entry_time * 1000000000
    if not before.any():
        return None
    v = d['enter_tag'].to_numpy()[before.nonzero()[0][-1]]
    return v if isinstance(v, str) and v else None


def _safe(fn, default, **kwargs):
    """freqtrade's strategy_safe_wrapper: a callback that raises gives its default."""
    try:
        return fn(**kwargs)
    except NotSupported:
        raise
    except Exception:
        return default


_DATES = [None, None]


def _before(d, bar_time):
    """The analysed frame's candles before bar_time (seconds): a live run's frame ends there
    already; the claimed run's, analysed once over the whole history, is cut there as freqtrade's
    backtest cuts its dataprovider's."""
    if 'date' not in d.columns:
        return d
    if _DATES[0] is not d:
        _DATES[0], _DATES[1] = d, d['date'].astype('int64').to_numpy()
    k = int(np.searchsorted(_DATES[1], bar_time * 1000000000, side='left'))
    return d if k >= len(d) else d.iloc[:k]


def answer_calls(state):
    """The callbacks' answer (sbx_proto.h, SBX_LIVE_CALL_BYTES) to the trade state the host sent
    for the next bar (SBX_LIVE_TRADE_BYTES), from the instance and the analysed frame of the last
    candle run: freqtrade's should_exit with its order and arguments, custom_stoploss on the
    bar's best price and custom_exit on its open, each called only where the host asks; before
    them, on the bar the trade entered, confirm_trade_entry as backtesting.py's _enter_trade
    calls it (its open as the rate, the entry candle's time and tag), whose refusal is the whole
    answer: the trade is then not entered."""
    import datetime
    import math
    import struct
    side, ask, entry_bar, entry_time, bar_time, entry_px, stop, rate, profit, bound, bound_profit = \
        struct.unpack(TRADE_FORMAT, state)
    flags, ratio, name = 0, 0.0, b''
    if side == 0 or LAST is None:
        return struct.pack(CALL_FORMAT, 0, 0.0, 0, b'')
    cls, st, d = LAST
    d = _before(d, bar_time)
    now = datetime.datetime.fromtimestamp(bar_time, datetime.timezone.utc)
    trade = LiveTrade(side, entry_time, entry_px, stop, _entry_tag(d, entry_time))
    st.dp._set_analyzed(d)
    try:
        calls = trade_calls(cls, st)
        if ask & ASK_ENTRY and 'confirm_trade_entry' in calls and not _confirm_entry(st, trade, now):
            return struct.pack(CALL_FORMAT, CALL_REFUSED, 0.0, 0, b'')
        if ask & ASK_STOP and 'custom_stoploss' in calls:
            r = _safe(st.custom_stoploss, None, pair=PAIR, trade=trade, current_time=now,
                      current_rate=bound, current_profit=bound_profit, after_fill=False)
            if isinstance(r, (int, float)) and not isinstance(r, bool) and r and math.isfinite(r) \
                    and abs(r) <= 1:
                flags, ratio = flags | CALL_STOP, float(r)
        use_exit = _setting(st, 'use_exit_signal', 'use_sell_signal')
        if ask & ASK_EXIT and use_exit and 'custom_exit' in calls:
            r = _safe(st.custom_exit, False, pair=PAIR, trade=trade, current_time=now,
                      current_rate=rate, current_profit=profit)
            if r:
                flags |= CALL_EXIT
                if isinstance(r, str):
                    if len(r) > CALL_NAME_MAX or not all(' ' <= c <= '~' for c in r):
                        raise NotSupported('custom_exit\'s reason %r is not supported: a reason crosses '
                                           'as at most %d printable ASCII characters'
                                           % (r[:80], CALL_NAME_MAX))
                    name = r.encode('ascii')
    finally:
        st.dp._set_analyzed(None)
    return struct.pack(CALL_FORMAT, flags, ratio, len(name), name)


def _confirm_entry(st, trade, now):
    """confirm_trade_entry for the trade entered at now, with the arguments freqtrade's backtest
    gives it: the order type and time in force of the class's entry orders, the amount a unit of
    the quote currency buys at the rate (the audit's trades are a unit of notional), the rate,
    the time, the entry's tag and side. Anything but a true answer refuses; an exception is
    freqtrade's default, True."""
    order_types = getattr(st, 'order_types', None) or {}
    tif = getattr(st, 'order_time_in_force', None) or {}
    return bool(_safe(st.confirm_trade_entry, True, pair=PAIR,
                      order_type=order_types.get('entry', 'limit'),
                      amount=1.0 / trade.open_rate, rate=trade.open_rate,
                      time_in_force=tif.get('entry', 'GTC'), current_time=now,
                      entry_tag=trade.enter_tag, side=trade.trade_direction))


def _informative_pair_names(pairs):
    """The pair of each (pair, timeframe[, candle_type]) informative_pairs returns."""
    return [p[0] if isinstance(p, (tuple, list)) and p else p for p in pairs or ()]


_TRADE_RULES = (('exit_profit_only', 'sell_profit_only'), ('exit_profit_offset', 'sell_profit_offset'),
                ('ignore_roi_if_entry_signal', 'ignore_roi_if_buy_signal'))


def _check_trade_settings(cls, st):
    """exit_profit_only (with exit_profit_offset) and ignore_roi_if_entry_signal are rules about
    the open trade, which the host's replay applies as the class body declares them (inspect reads
    them there): one the instance sets for itself, in __init__ or bot_start, the host cannot see,
    so it is refused by name."""
    for new, old in _TRADE_RULES:
        for name in (new, old):
            if name in vars(st):
                raise NotSupported('%s.%s is set on the instance, not declared in the class: the '
                                   'replay applies it as the class body declares it; declare it '
                                   'there' % (cls.__name__, name))


def _ignores_roi(cls, st, el, xs, es):
    """Whether the run carries the long entry signal as set (EV_LONG_SIGNAL) for
    ignore_roi_if_entry_signal over an ROI table. An open short's entry signal is its uncancelled
    entry event; a short entry signal a candle cancels (by its short exit or a long entry) is not
    carried, so a strategy that gives one is refused by name."""
    if not (st.minimal_roi and _setting(st, 'ignore_roi_if_entry_signal', 'ignore_roi_if_buy_signal')):
        return False
    if (es & (xs | el)).any():
        raise NotSupported('%s.ignore_roi_if_entry_signal = True with a short entry signal that the '
                           'same candle cancels (its exit_short or enter_long set too) is not '
                           'supported: the replay sets the ROI table aside on a short\'s uncancelled '
                           'entry signal only; set it to False to audit the strategy without it'
                           % cls.__name__)
    return True


PARAMS_FILE = None


def set_params_file(text):
    """The text of the strategy's parameter file (freqtrade's `<file>.json` beside the strategy,
    staged by the trusted launcher), or None when there is none."""
    global PARAMS_FILE
    PARAMS_FILE = text


def params_from_file(cls):
    """The parameter file's "params" for cls, as freqtrade's load_params_from_file reads it: a
    file that is not a JSON object is ignored (freqtrade warns and runs without it); one written for
    another strategy is refused, as freqtrade refuses it."""
    if not PARAMS_FILE:
        return {}
    import json
    try:
        d = json.loads(PARAMS_FILE)
    except ValueError:
        return {}
    if not isinstance(d, dict):
        return {}
    if d.get('strategy_name') != cls.__name__:
        raise NotSupported('the parameter file beside the strategy is for %r, not %r: freqtrade '
                           'refuses it ("Invalid parameter file provided"); name the class in its '
                           'strategy_name or remove the file' % (d.get('strategy_name'), cls.__name__))
    p = d.get('params', {})
    if not isinstance(p, dict):
        raise NotSupported('the parameter file\'s "params" is not an object')
    return p


def _load_file_settings(st, p):
    """The file's roi, stoploss and trailing settings on the instance, as freqtrade's
    ft_load_params_from_file sets them (the host's replay reads the same from the file)."""
    if 'roi' in p:
        st.minimal_roi = p['roi']
    sl = p.get('stoploss') or {}
    if isinstance(sl, dict) and 'stoploss' in sl:
        st.stoploss = sl['stoploss']
    tr = p.get('trailing') or {}
    if isinstance(tr, dict):
        for k in ('trailing_stop', 'trailing_stop_positive', 'trailing_stop_positive_offset',
                  'trailing_only_offset_is_reached'):
            if k in tr:
                setattr(st, k, tr[k])


def _set_params(st, params):
    base = sys.modules['freqtrade.strategy'].BaseParameter
    for k, v in params.items():
        cur = getattr(st, k, None)
        if isinstance(cur, base):
            p = type(cur).__new__(type(cur))
            p.__dict__.update(cur.__dict__)
            p.value = v
            setattr(st, k, p)
        else:
            setattr(st, k, v)


def _frame(df):
    d = pd.DataFrame({'date': df.index, 'open': df['open'].to_numpy(), 'high': df['high'].to_numpy(),
                      'low': df['low'].to_numpy(), 'close': df['close'].to_numpy(),
                      'volume': df['volume'].to_numpy()})
    return d


def _column(d, names, n):
    for name in names:
        if name in d.columns:
            v = pd.to_numeric(d[name], errors='coerce').to_numpy(dtype=float)
            if len(v) != n:
                raise ValueError('column %r has %d rows for %d candles' % (name, len(v), n))
            return v == 1
    return np.zeros(n, dtype=bool)


def _frame_back(d, name, n):
    if not isinstance(d, pd.DataFrame):
        raise TypeError('%s must return the dataframe, not %s' % (name, type(d).__name__))
    if len(d) != n:
        raise ValueError('%s returned %d rows for %d candles; freqtrade strategies must keep every '
                         'row' % (name, len(d), n))
    return d


# The events a freqtrade value carries beside its position (sbx_proto.h, SBX_EV_*): the value
# is position + 3 * events, so a plain position (-1, 0, 1) carries none.
EV_ENTER_LONG, EV_ENTER_SHORT, EV_EXIT_LONG, EV_EXIT_SHORT, EV_LONG_SIGNAL = 1, 2, 4, 8, 16


def freqtrade_positions(el, xl, es, xs, start, exit_signal=True, long_signal=False):
    """freqtrade's backtest per candle, one trade at a time (backtesting.py's check_for_trade_entry
    and should_exit): a flat book enters on an entry signal that no exit (nor the other side's
    entry) cancels; an open trade leaves on its exit signal unless its entry signal is also set
    (never, when the strategy's use_exit_signal is off); a trade that leaves on a candle does not
    re-enter on it. The position decided on a candle's close is held from the next open.

    Each value is that position plus 3 times the candle's events: its uncancelled long and short
    entry signals and its effective long and short exit signals. The host's replay with exits
    follows the events, not the position, once its stop or ROI has closed a trade: freqtrade
    then enters again on the next candle whose entry signal is set, either side. With long_signal
    (ignore_roi_if_entry_signal) the long entry signal as set, cancelled or not, is an event too
    (EV_LONG_SIGNAL): it sets an open long's ROI table aside, as freqtrade's should_exit does."""
    n = len(el)
    long_in = el & ~xl & ~es
    short_in = es & ~xs & ~el
    if exit_signal:
        long_out, short_out = xl & ~el, xs & ~es
    else:
        long_out = short_out = np.zeros(n, dtype=bool)
    ev = (long_in * EV_ENTER_LONG + short_in * EV_ENTER_SHORT + long_out * EV_EXIT_LONG +
          short_out * EV_EXIT_SHORT + (el * EV_LONG_SIGNAL if long_signal else 0)).astype(np.int8)
    out = np.zeros(n, dtype=np.int8)
    pos = 0
    for i in range(start, n):
        if pos == 0:
            pos = 1 if long_in[i] else -1 if short_in[i] else 0
        elif (long_out if pos > 0 else short_out)[i]:
            pos = 0
        out[i] = pos + 3 * ev[i]
    return out


# The tag table a framework run sends after its values (sbx_proto.h, SBX_TAGS_*), or None.
TAG_TABLE = None
TAGS_MAX, TAG_NAME_MAX = 64, 64


def _tag_names(d, name, where, n):
    """The column's tag on each candle where (its entry or exit event), None elsewhere: a tag is
    a non-empty string, checked as the wire takes it (printable ASCII, 1 to TAG_NAME_MAX bytes)."""
    out = [None] * n
    if name not in d.columns:
        return out
    col = d[name].tolist()
    for i in np.flatnonzero(where):
        v = col[i] if i < len(col) else None
        if not isinstance(v, str) or v == '':
            continue
        if len(v) > TAG_NAME_MAX or not all(' ' <= c <= '~' for c in v):
            raise NotSupported('the %s %r on candle %d is not supported: a tag crosses as at most %d '
                               'printable ASCII characters' % (name, v[:80], i, TAG_NAME_MAX))
        out[i] = v
    return out


def tag_table(enter, exit_, owner, n):
    """The wire's tag table (sbx_proto.h) for the candles' entry and exit tags (lists of a name
    or None a candle), each on the bar that carries its candle's events (spread), or None when no
    candle has a tag."""
    names = sorted({v for v in enter + exit_ if v is not None})
    if not names:
        return None
    if len(names) > TAGS_MAX:
        raise NotSupported('%d distinct enter_tag and exit_tag names are not supported: at most %d '
                           'cross with the signals' % (len(names), TAGS_MAX))
    place = {v: i + 1 for i, v in enumerate(names)}
    cols = []
    for tags in (enter, exit_):
        c = np.array([place.get(v, 0) if v is not None else 0 for v in tags], dtype=np.int64)
        if owner is not None:
            bars = np.zeros(n, dtype=np.int64)
            ok = owner >= 0
            bars[ok] = c[owner[ok]]
            later = np.zeros(n, dtype=bool)
            later[1:] = owner[1:] == owner[:-1]
            bars[later] = 0
            c = bars
        cols.append(c.astype(np.uint8).tobytes())
    head = bytes([ord('T'), len(names)]) + b''.join(bytes([len(v)]) + v.encode('ascii') for v in names)
    return head + cols[0] + cols[1]


def _setting(st, new, old):
    """A setting as freqtrade's strategy resolver reads it: the deprecated name (use_sell_signal)
    when the strategy's own class sets it, else the current one."""
    base = sys.modules['freqtrade.strategy'].IStrategy
    for c in type(st).__mro__:
        if c is base:
            break
        if old in c.__dict__:
            return getattr(st, old)
    return getattr(st, new)


class ConfigNotHeld(NotSupported, KeyError):
    """A key of freqtrade's configuration an audit does not hold: a KeyError to a strategy that
    catches one, a refusal naming the key to one that does not."""


class _Config(dict):
    """freqtrade's configuration as an audit gives it to the strategy (backtest_config); .get()
    keeps the strategy's own default, and a key it does not hold (the exchange's keys, the bot's
    database, telegram, the API server) is refused by name rather than a bare KeyError."""
    where = 'config'

    def __missing__(self, key):
        raise ConfigNotHeld("%s[%r] is not in an audit's freqtrade config, which holds %s"
                            % (self.where, key, ', '.join(sorted(self))))


class _ExchangeConfig(_Config):
    where = "config['exchange']"


# The exchange an audit names: its data comes from a file, not from an exchange, so no exchange's
# own rules (candle limits, futures tiers, fees) apply to it.
EXCHANGE = 'audit'
USER_DATA_DIRS = ('backtest_results', 'data', 'hyperopts', 'hyperopt_results', 'logs', 'notebooks',
                  'plot', 'strategies', 'freqaimodels')


def backtest_config(cls):
    """The configuration freqtrade's backtest hands the strategy's constructor, as far as an audit
    has one (freqtrade's configuration defaults, constants.py and configuration.py): one pair, the
    audited one, in the whitelist of an exchange named EXCHANGE; spot trading (no margin, no
    leverage, no shorts unless the class can_short on its own); one trade at a time with all the
    wallet staked ("unlimited", max_open_trades 1: the replay compounds its equity trade after
    trade); dry_run, as backtesting sets it; the user-data directory a relative path in the run's
    scratch, which starts empty: made there with its subdirectories, as freqtrade's
    create_userdata_dir makes them, so a strategy that keeps a file of its own there finds the
    directory a backtest has."""
    import pathlib
    user_data = pathlib.Path('user_data').resolve()
    user_data.mkdir(exist_ok=True)
    for sub in USER_DATA_DIRS:
        (user_data / sub).mkdir(exist_ok=True)
    from freqtrade.enums import CandleType, MarginMode, RunMode, TradingMode
    exchange = _ExchangeConfig(name=EXCHANGE, pair_whitelist=[PAIR], pair_blacklist=[],
                               ccxt_config={}, ccxt_async_config={}, sandbox=False)
    pricing = {'price_side': 'same', 'use_order_book': True, 'order_book_top': 1,
               'price_last_balance': 0.0}
    return _Config(strategy=cls.__name__, timeframe=cls.timeframe, stake_currency='QUOTE',
                   stake_amount='unlimited', max_open_trades=1, tradable_balance_ratio=0.99,
                   dry_run=True, dry_run_wallet=1000, runmode=RunMode.BACKTEST,
                   trading_mode=TradingMode.SPOT, margin_mode=MarginMode.NONE,
                   candle_type_def=CandleType.SPOT, exchange=exchange, pairs=[PAIR],
                   entry_pricing=dict(pricing), exit_pricing=dict(pricing), pairlists=[
                       {'method': 'StaticPairList'}], internals={},
                   user_data_dir=user_data, datadir=user_data / 'data' / EXCHANGE,
                   exportfilename=user_data / 'backtest_results')


def run_freqtrade(cls, df, params):
    st = cls(backtest_config(cls))
    filed = params_from_file(cls)
    _load_file_settings(st, filed)
    st.ft_load_hyper_params(filed)
    _set_params(st, params)
    _check_freqtrade(cls, st)
    bars, owner = candles(df, st.timeframe)
    n = len(bars)
    meta = {'pair': PAIR}
    st.dp._set_bars(df, st.timeframe)
    d = _frame_back(st.advise_indicators(_frame(bars), meta), 'populate_indicators', n)
    d = _frame_back(st.populate_entry_trend(d, meta), 'populate_entry_trend', n)
    d = _frame_back(st.populate_exit_trend(d, meta), 'populate_exit_trend', n)
    el = _column(d, ('enter_long', 'buy'), n)
    xl = _column(d, ('exit_long', 'sell'), n)
    es = _column(d, ('enter_short',), n) if st.can_short else np.zeros(n, dtype=bool)
    xs = _column(d, ('exit_short',), n) if st.can_short else np.zeros(n, dtype=bool)
    start = max(0, int(st.startup_candle_count or 0))
    use_exit = bool(_setting(st, 'use_exit_signal', 'use_sell_signal'))
    global LAST
    if CALLS and trade_calls(cls, st) and owner is not None:
        raise NotSupported('%s\'s per-trade callbacks on a timeframe (%s) coarser than the data\'s '
                           'bars are not supported: give it bars of %s' % (cls.__name__, st.timeframe,
                                                                          st.timeframe))
    LAST = (cls, st, d)
    _check_trade_settings(cls, st)
    ignore_roi = _ignores_roi(cls, st, el, xs, es)
    global TAG_TABLE
    entering = (el & ~xl & ~es) | (es & ~xs & ~el)
    leaving = ((xl & ~el) | (xs & ~es)) if use_exit else np.zeros(n, dtype=bool)
    TAG_TABLE = tag_table(_tag_names(d, 'enter_tag', entering, n), _tag_names(d, 'exit_tag', leaving, n),
                          owner, len(df))
    return spread(freqtrade_positions(el, xl, es, xs, start, use_exit, ignore_roi), owner, len(df))


# --- backtesting.py -----------------------------------------------------------------------------

def run_backtesting(cls, df, params, exclusive):
    bt = sys.modules['backtesting']
    data = bt._Data(df)
    broker = bt._Broker(data, exclusive)
    st = cls(broker, data, params)
    st.init()
    inds = [(k, v) for k, v in st.__dict__.items() if isinstance(v, bt._Indicator)]
    # backtesting.py's own start: the first bar every indicator has a value, plus one
    start = 1 + max((int(np.isnan(v.astype(float)).argmin(axis=-1).max()) for _, v in inds), default=0)
    n = len(df)
    out = np.zeros(n, dtype=np.int8)
    for i in range(start, n):
        data._set_length(i + 1)
        for k, v in inds:
            setattr(st, k, v[..., :i + 1])
        broker.fill(i)
        out[i - 1] = broker.state
        st.next()
    if n and start < n:
        broker.fill(n)
        out[n - 1] = broker.state
    return out
