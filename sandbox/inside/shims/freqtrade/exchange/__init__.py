"""freqtrade.exchange: the timeframe helpers strategies call (freqtrade's definitions: a
timeframe such as '5m', '1h', '1d', '1w'). Nothing of a live exchange exists in the sandbox: the
rest of the module is refused with a sentence naming it."""
from datetime import datetime, timedelta, timezone

import sa_frameworks
from sa_frameworks import NotSupported


def timeframe_to_seconds(timeframe):
    """'5m' -> 300."""
    return sa_frameworks.timeframe_seconds(timeframe)


def timeframe_to_minutes(timeframe):
    """'1h' -> 60."""
    return sa_frameworks.timeframe_seconds(timeframe) // 60


def timeframe_to_msecs(timeframe):
    """'1m' -> 60000."""
    return sa_frameworks.timeframe_seconds(timeframe) * 1000


def timeframe_to_resample_freq(timeframe):
    """pandas' resample rule for the timeframe, as freqtrade gives it: seconds, or weekly candles
    starting on Monday for timeframes between a week and a month."""
    s = sa_frameworks.timeframe_seconds(timeframe)
    return '1W-MON' if 10000 < s // 60 < 43200 else '%ds' % s


def _date(date, name):
    if date is None:
        raise NotSupported('%s without a date is not supported: it reads the current time, which '
                           'a backtest does not have; pass the candle\'s date' % name)
    if date.tzinfo is None:
        date = date.replace(tzinfo=timezone.utc)
    return int(date.timestamp())


def timeframe_to_prev_date(timeframe, date=None):
    """The start of the candle that holds date (date itself when it starts one)."""
    s = sa_frameworks.timeframe_seconds(timeframe)
    t = _date(date, 'timeframe_to_prev_date')
    return datetime.fromtimestamp(t - t % s, tz=timezone.utc)


def timeframe_to_next_date(timeframe, date=None):
    """The start of the candle after the one that holds date (after date's own candle when date
    starts one: freqtrade rounds up by a whole candle)."""
    s = sa_frameworks.timeframe_seconds(timeframe)
    t = _date(date, 'timeframe_to_next_date')
    return datetime.fromtimestamp(t - t % s + s, tz=timezone.utc)


def date_minus_candles(timeframe, candle_count, date=None):
    """The start of date's candle, less candle_count candles (freqtrade's: date defaults to now,
    which a backtest does not have)."""
    start = timeframe_to_prev_date(timeframe, _require(date, 'date_minus_candles'))
    return start - timedelta(minutes=timeframe_to_minutes(timeframe) * candle_count)


def _require(date, name):
    _date(date, name)
    return date


def __getattr__(name):
    if name.startswith('__'):
        raise AttributeError(name)
    raise NotSupported('freqtrade.exchange.%s is not supported: the sandbox has no exchange; the '
                       'timeframe helpers (timeframe_to_minutes, timeframe_to_seconds, '
                       'timeframe_to_msecs, timeframe_to_prev_date, timeframe_to_next_date, '
                       'date_minus_candles) are '
                       'provided' % name)
