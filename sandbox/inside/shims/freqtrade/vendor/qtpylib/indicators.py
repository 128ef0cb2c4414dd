"""freqtrade.vendor.qtpylib.indicators (also technical.qtpylib): qtpylib's helpers as freqtrade
strategies call them, over pandas Series and the strategy's DataFrame."""
import numpy as np
import pandas as pd

from sa_frameworks import NotSupported


def _series(x, like=None):
    if isinstance(x, pd.Series):
        return x
    if isinstance(x, (int, float, np.integer, np.floating)) and like is not None:
        return pd.Series(float(x), index=like.index)
    return pd.Series(np.asarray(x))


def crossed(series1, series2, direction=None):
    s1 = _series(series1)
    s2 = _series(series2, s1)
    above = (s1 > s2) & (s1.shift(1) <= s2.shift(1))
    below = (s1 < s2) & (s1.shift(1) >= s2.shift(1))
    if direction == 'above':
        return above
    if direction == 'below':
        return below
    return above | below


def crossed_above(series1, series2):
    return crossed(series1, series2, 'above')


def crossed_below(series1, series2):
    return crossed(series1, series2, 'below')


def typical_price(bars):
    return (bars['high'] + bars['low'] + bars['close']) / 3


def mid_price(bars):
    return (bars['high'] + bars['low']) / 2


def ibs(bars):
    return (bars['close'] - bars['low']) / (bars['high'] - bars['low'])


def true_range(bars):
    prev = bars['close'].shift(1)
    return pd.concat([bars['high'] - bars['low'], (bars['high'] - prev).abs(),
                      (bars['low'] - prev).abs()], axis=1).max(axis=1)


def rolling_mean(series, window=200, min_periods=None):
    return _series(series).rolling(window=window, min_periods=window if min_periods is None
                                   else min_periods).mean()


def rolling_std(series, window=200, min_periods=None):
    return _series(series).rolling(window=window, min_periods=window if min_periods is None
                                   else min_periods).std()


def rolling_min(series, window=14, min_periods=None):
    return _series(series).rolling(window=window, min_periods=window if min_periods is None
                                   else min_periods).min()


def rolling_max(series, window=14, min_periods=None):
    return _series(series).rolling(window=window, min_periods=window if min_periods is None
                                   else min_periods).max()


def rolling_weighted_mean(series, window=200, min_periods=None):
    return _series(series).ewm(span=window, min_periods=window if min_periods is None
                               else min_periods).mean()


sma = rolling_mean
ema = rolling_weighted_mean


def wma(series, window=200, min_periods=None):
    s = _series(series)
    w = np.arange(1, window + 1, dtype=float)
    return s.rolling(window, min_periods=window if min_periods is None else min_periods).apply(
        lambda x: np.dot(x, w[-len(x):]) / w[-len(x):].sum(), raw=True)


def hull_moving_average(series, window=200, min_periods=None):
    s = _series(series)
    half = wma(s, window // 2, min_periods)
    full = wma(s, window, min_periods)
    return wma(2 * half - full, int(np.sqrt(window)), min_periods)


hma = hull_moving_average


def atr(bars, window=14, exp=False):
    tr = true_range(bars)
    return rolling_weighted_mean(tr, window) if exp else rolling_mean(tr, window)


def bollinger_bands(series, window=20, stds=2):
    s = _series(series)
    ma = rolling_mean(s, window=window, min_periods=1)
    std = rolling_std(s, window=window, min_periods=1)
    return pd.DataFrame(index=s.index, data={'upper': ma + std * stds, 'mid': ma,
                                             'lower': ma - std * stds})


def weighted_bollinger_bands(series, window=20, stds=2):
    s = _series(series)
    ema_ = rolling_weighted_mean(s, window=window)
    std = rolling_std(s, window=window)
    return pd.DataFrame(index=s.index, data={'upper': ema_ + std * stds, 'mid': ema_,
                                             'lower': ema_ - std * stds})


def keltner_channel(bars, window=14, atrs=2):
    tp = typical_price(bars)
    mid = rolling_mean(tp, window)
    a = atr(bars, window) * atrs
    return pd.DataFrame(index=bars.index, data={'upper': mid + a, 'mid': mid, 'lower': mid - a})


def heikinashi(bars):
    o, h, l, c = (bars[k].to_numpy(dtype=float) for k in ('open', 'high', 'low', 'close'))
    ha_close = (o + h + l + c) / 4
    ha_open = np.empty(len(o))
    if len(o):
        ha_open[0] = (o[0] + c[0]) / 2
    for i in range(1, len(o)):
        ha_open[i] = (ha_open[i - 1] + ha_close[i - 1]) / 2
    return pd.DataFrame(index=bars.index, data={
        'open': ha_open, 'high': np.maximum.reduce([h, ha_open, ha_close]),
        'low': np.minimum.reduce([l, ha_open, ha_close]), 'close': ha_close})


def awesome_oscillator(df, weighted=False, fast=5, slow=34):
    mid = (df['high'] + df['low']) / 2
    if weighted:
        return mid.ewm(fast).mean() - mid.ewm(slow).mean()
    return mid.rolling(fast).mean() - mid.rolling(slow).mean()


def vwap(bars):
    tp = typical_price(bars)
    return (tp * bars['volume']).cumsum() / bars['volume'].cumsum()


def rolling_vwap(bars, window=200, min_periods=None):
    mp = window if min_periods is None else min_periods
    tp = typical_price(bars)
    return ((tp * bars['volume']).rolling(window, min_periods=mp).sum() /
            bars['volume'].rolling(window, min_periods=mp).sum())


def zscore(bars, window=20, stds=1, col='close'):
    s = bars[col]
    return (s - rolling_mean(s, window)) / rolling_std(s, window) * stds


def returns(series):
    return _series(series).pct_change()


def log_returns(series):
    return np.log(_series(series)).diff()


def williams_r(bars, periods=14):
    hh = bars['high'].rolling(periods).max()
    ll = bars['low'].rolling(periods).min()
    return -100 * (hh - bars['close']) / (hh - ll)


def stoch(df, window=14, d=3, k=3, fast=False):
    ll = df['low'].rolling(window).min()
    hh = df['high'].rolling(window).max()
    fast_k = 100 * (df['close'] - ll) / (hh - ll)
    fast_d = fast_k.rolling(d).mean()
    if fast:
        return pd.DataFrame(index=df.index, data={'k': fast_k, 'd': fast_d})
    slow_k = fast_k.rolling(k).mean()
    return pd.DataFrame(index=df.index, data={'k': slow_k, 'd': slow_k.rolling(d).mean()})


def session(df, start='17:00', end='16:00'):
    raise NotSupported('qtpylib.session is not supported: it needs the exchange\'s session '
                       'calendar; freqtrade strategies may use the other qtpylib helpers')
