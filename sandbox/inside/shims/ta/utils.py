"""ta.utils: dropna, and the fill of a ta indicator's gaps (fillna=True), as ta defines them."""
import math

import numpy as np

from sa_frameworks import NotSupported


def refuse(module, name):
    if name.startswith('__'):
        raise AttributeError(name)
    raise NotSupported('%s.%s is not supported: the sandbox\'s ta provides '
                       'ta.volatility.keltner_channel_wband, ta.volatility.donchian_channel_pband, '
                       'ta.trend.ichimoku_base_line, ta.trend.KSTIndicator and ta.utils.dropna'
                       % (module, name))


def dropna(df):
    """The frame without the rows where a number column is 0, NaN or beyond exp(709)."""
    df = df.copy()
    cols = df.select_dtypes(include=np.number).columns.tolist()
    df[cols] = df[cols][df[cols] < math.exp(709)]
    df[cols] = df[cols][df[cols] != 0.0]
    return df.dropna()


def fill(series, fillna, value):
    """ta's _check_fillna: with fillna, infinities become gaps, then gaps are carried forward and
    the rest set to value (-1: carried backward)."""
    if not fillna:
        return series
    s = series.replace([np.inf, -np.inf], np.nan)
    return s.ffill().bfill() if value == -1 else s.ffill().fillna(value)


def __getattr__(name):
    return refuse('ta.utils', name)
