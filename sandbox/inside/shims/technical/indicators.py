"""technical.indicators: supertrend and chaikin_money_flow (cmf), as technical defines them. Any
other function of technical.indicators is refused by name."""
import numpy as np
import pandas as pd

import talib.abstract as ta
from sa_frameworks import NotSupported

PROVIDED = ('supertrend', 'chaikin_money_flow', 'cmf')


def supertrend(dataframe, period=10, multiplier=3):
    """(value, direction): the SuperTrend line over an ATR that is the simple mean of `period` true
    ranges, its bands carried while the close stays inside them; direction 'up', 'down' or None
    (before the line starts)."""
    high = dataframe['high'].to_numpy(dtype=float)
    low = dataframe['low'].to_numpy(dtype=float)
    close = dataframe['close'].to_numpy(dtype=float)
    n = len(close)
    tr = ta.TRANGE(dataframe['high'], dataframe['low'], dataframe['close'])
    atr = pd.Series(np.asarray(tr, dtype=float)).rolling(period).mean().to_numpy()
    mid = (high + low) / 2
    upper_basic, lower_basic = mid + multiplier * atr, mid - multiplier * atr
    upper, lower = np.zeros(n), np.zeros(n)
    for i in range(period, n):
        keep_up = not (upper_basic[i] < upper[i - 1] or close[i - 1] > upper[i - 1])
        upper[i] = upper[i - 1] if keep_up else upper_basic[i]
        keep_low = not (lower_basic[i] > lower[i - 1] or close[i - 1] < lower[i - 1])
        lower[i] = lower[i - 1] if keep_low else lower_basic[i]
    line = np.zeros(n)
    for i in range(period, n):
        if line[i - 1] == upper[i - 1]:
            line[i] = upper[i] if close[i] <= upper[i] else lower[i]
        elif line[i - 1] == lower[i - 1]:
            line[i] = lower[i] if close[i] >= lower[i] else upper[i]
    direction = np.where(line > 0, np.where(close < line, 'down', 'up'), None)
    return line, direction


def chaikin_money_flow(dataframe, period=21):
    """The sum over `period` candles of the money flow volume (the close's place in the candle's
    range, -1 to 1, times the volume) over the sum of the volume."""
    h, l, c, v = dataframe['high'], dataframe['low'], dataframe['close'], dataframe['volume']
    flow = ((c - l) - (h - c)) / (h - l) * v
    return flow.rolling(period).sum() / v.rolling(period).sum()


cmf = chaikin_money_flow


def __getattr__(name):
    if name.startswith('__'):
        raise AttributeError(name)
    raise NotSupported('technical.indicators.%s is not supported: the sandbox\'s technical.indicators '
                       'provides %s' % (name, ', '.join(PROVIDED)))
