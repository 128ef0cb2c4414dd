"""freqtrade.strategy.informative_decorator: informative timeframes of the audited pair, as
freqtrade computes them. The informative candles are the audited bars resampled to the
informative timeframe, complete candles only, by the clock (sa_frameworks.candles: a run cut at
any bar sees only the candles that had closed by then); merge_informative_pair puts each one on
the strategy's candle that closes with it (its date moved on by the informative candle's length
less the strategy's), and forward-fills it until the next one closes. Another pair's data does
not exist in the sandbox: asking for it is refused in one sentence."""
from dataclasses import dataclass
from typing import Callable, Optional, Union

import pandas as pd

import sa_frameworks
from freqtrade.enums import RunMode
from freqtrade.exchange import timeframe_to_minutes
from sa_frameworks import NotSupported


def other_pair(pair, what):
    return NotSupported('%s asks for another pair\'s data (%s): the audit gives a strategy its own '
                        'pair\'s bars only, so informative pairs of other symbols are not supported; '
                        'audit the strategy without them (its own pair\'s informative timeframes '
                        'are supported)' % (what, pair))


@dataclass
class InformativeData:
    asset: Optional[str]
    timeframe: str
    fmt: Union[str, Callable[..., str], None]
    ffill: bool
    candle_type: Optional[str]


def informative(timeframe, asset='', fmt=None, *, candle_type=None, ffill=True):
    """@informative('1h'): the decorated populate_indicators_1h(self, dataframe, metadata) runs on
    the informative candles, and its columns are merged as '{column}_{timeframe}'."""
    def decorator(fn):
        found = getattr(fn, '_ft_informative', [])
        found.append(InformativeData(asset, timeframe, fmt, ffill, candle_type))
        fn._ft_informative = found
        return fn
    return decorator


def gather(strategy):
    """(InformativeData, method) of each @informative method of the strategy's class, as
    freqtrade's IStrategy gathers them; a timeframe finer than the strategy's is an error there."""
    out = []
    cls = type(strategy)
    for name in dir(cls):
        method = getattr(cls, name)
        found = getattr(method, '_ft_informative', None) if callable(method) else None
        if not isinstance(found, list):
            continue
        for inf in found:
            if timeframe_to_minutes(inf.timeframe) < timeframe_to_minutes(strategy.timeframe):
                raise ValueError('Informative timeframe must be equal or higher than strategy '
                                 'timeframe!')
            out.append((inf, method))
    return out


def _pair_formats(pair):
    base, _, quote = pair.partition('/')
    quote = quote.split(':')[0]
    return {'base': base.lower(), 'BASE': base.upper(), 'quote': quote.lower(), 'QUOTE': quote.upper()}


def merge_and_populate(strategy, dataframe, metadata, inf, populate):
    """One @informative method: its candles, its columns, merged onto the strategy's candles."""
    pair = metadata['pair']
    if inf.asset:
        stake = strategy.config.get('stake_currency', 'QUOTE')
        asset = inf.asset.format(stake_currency=stake, stake=stake, **_pair_formats(pair)).upper()
        if asset != pair:
            raise other_pair(asset, '@informative(%r, %r)' % (inf.timeframe, inf.asset))
    fmt = inf.fmt or ('{base}_{quote}_{column}_{timeframe}' if inf.asset else '{column}_{timeframe}')
    formatter = fmt if callable(fmt) else fmt.format
    args = dict(_pair_formats(pair), asset=pair, timeframe=inf.timeframe)
    frame = strategy.dp.get_pair_dataframe(pair, inf.timeframe)
    frame = populate(strategy, frame, {'pair': pair, 'timeframe': inf.timeframe})
    frame = frame.rename(columns=lambda column: formatter(column=column, **args))
    date_column = formatter(column='date', **args)
    if date_column in dataframe.columns:
        raise ValueError('Duplicate column name %s exists in dataframe! Ensure column names are '
                         'unique!' % date_column)
    return merge_informative_pair(dataframe, frame, strategy.timeframe, inf.timeframe,
                                  ffill=inf.ffill, append_timeframe=False, date_column=date_column)


def merge_informative_pair(dataframe, informative, timeframe, timeframe_inf, ffill=True,
                           append_timeframe=True, date_column='date', suffix=None):
    """The informative candles on the strategy's candles, each from the strategy candle that
    closes with it: its date is moved on by its own length less the strategy candle's (a 1h
    candle of 14:00 lands on the 14:45 candle of 15m, the last one before 15:00), then merged on
    the date and, with ffill, carried forward. The informative columns are renamed
    '{column}_{timeframe_inf}' (append_timeframe) or '{column}_{suffix}'."""
    informative = informative.copy()
    minutes_inf = timeframe_to_minutes(timeframe_inf)
    minutes = timeframe_to_minutes(timeframe)
    if minutes > minutes_inf:
        raise ValueError('Tried to merge a faster timeframe to a slower timeframe.This would create '
                         'new rows, and can throw off your regular indicators.')
    if minutes == minutes_inf or informative.empty:
        informative['date_merge'] = informative[date_column]
    elif timeframe_inf == '1M':
        informative['date_merge'] = (informative[date_column] + pd.offsets.MonthBegin(1)
                                     - pd.to_timedelta(minutes, 'm'))
    else:
        informative['date_merge'] = (informative[date_column] + pd.to_timedelta(minutes_inf, 'm')
                                     - pd.to_timedelta(minutes, 'm'))
    merge_col = 'date_merge'
    if suffix and append_timeframe:
        raise ValueError('You can not specify `append_timeframe` as True and a `suffix`.')
    if append_timeframe or suffix:
        tag = timeframe_inf if append_timeframe else suffix
        merge_col = 'date_merge_%s' % tag
        informative.columns = ['%s_%s' % (c, tag) for c in informative.columns]
    if ffill:
        out = pd.merge_ordered(dataframe, informative, fill_method='ffill', left_on='date',
                               right_on=merge_col, how='left')
    else:
        out = pd.merge(dataframe, informative, left_on='date', right_on=merge_col, how='left')
    return out.drop(merge_col, axis=1)


class DataProvider:
    """self.dp: the audited pair's own bars, at the strategy's timeframe or a coarser one (complete
    candles only, by the clock); the whitelist is that pair alone; ohlcv() and send_msg() answer
    as in freqtrade's backtest (an empty frame, nothing sent). Another pair, the order book, the
    ticker and the other live-only calls are refused in one sentence."""
    runmode = RunMode.BACKTEST

    def __init__(self):
        self._bars = None
        self._timeframe = None
        self._analyzed = None

    def _set_analyzed(self, frame):
        """The analysed frame a callback reads (freqtrade's backtest cuts it before the candle the
        callback is asked on); None outside the callbacks."""
        self._analyzed = frame

    def get_analyzed_dataframe(self, pair, timeframe=None):
        if pair != sa_frameworks.PAIR:
            raise other_pair(pair, 'self.dp.get_analyzed_dataframe')
        if self._analyzed is None:
            raise NotSupported('self.dp.get_analyzed_dataframe is not supported outside the '
                               'per-trade callbacks (custom_stoploss, custom_exit, confirm_trade_entry)')
        d = self._analyzed
        return d, (d['date'].iloc[-1] if len(d) else None)

    def _set_bars(self, bars, timeframe):
        """The data's bars (a DatetimeIndex, open..volume) the run was given, and the strategy's
        timeframe; set by the adapter before populate_indicators runs."""
        self._bars, self._timeframe = bars, timeframe

    def current_whitelist(self):
        return [sa_frameworks.PAIR]

    def market(self, pair):
        if pair != sa_frameworks.PAIR:
            return None
        base, _, quote = pair.partition('/')
        return {'symbol': pair, 'base': base, 'quote': quote, 'active': True, 'spot': True}

    def get_pair_dataframe(self, pair, timeframe=None, candle_type=''):
        if pair != sa_frameworks.PAIR:
            raise other_pair(pair, 'self.dp.get_pair_dataframe')
        if candle_type not in ('', None, 'spot') and str(candle_type) not in ('CandleType.SPOT',):
            raise NotSupported('self.dp.get_pair_dataframe(candle_type=%r) is not supported: the '
                               'audit has the pair\'s price candles only' % (candle_type,))
        if self._bars is None:
            raise NotSupported('self.dp.get_pair_dataframe is not supported outside '
                               'populate_indicators and the entry and exit methods')
        frame, _ = sa_frameworks.candles(self._bars, timeframe or self._timeframe)
        return sa_frameworks._frame(frame)

    historic_ohlcv = get_pair_dataframe

    def ohlcv(self, pair, timeframe=None, copy=True, candle_type=''):
        """The exchange's latest candles: freqtrade's backtest has none and gives an empty frame
        (dataprovider.py: only dry-run and live read the exchange)."""
        return pd.DataFrame()

    def send_msg(self, message, *, always_send=False):
        """A notification to the bot's chat: freqtrade sends none outside dry-run and live."""
        return None

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        raise NotSupported('self.dp.%s is not supported: the audit gives a strategy its own pair\'s '
                           'bars only (its own timeframe and coarser ones through '
                           'get_pair_dataframe; no other pairs, order book or ticker)' % name)

