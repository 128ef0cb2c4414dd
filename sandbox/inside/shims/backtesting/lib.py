"""backtesting.lib: crossover, cross, barssince, as backtesting.py defines them."""
from numbers import Number

import numpy as np
import pandas as pd

from sa_frameworks import NotSupported


def _last_two(s):
    if isinstance(s, pd.Series):
        return s.values
    if isinstance(s, Number):
        return (s, s)
    return s


def crossover(series1, series2):
    a, b = _last_two(series1), _last_two(series2)
    try:
        return bool(a[-2] < b[-2] and a[-1] > b[-1])
    except IndexError:
        return False


def cross(series1, series2):
    return crossover(series1, series2) or crossover(series2, series1)


def barssince(condition, default=np.inf):
    for i, c in enumerate(reversed(list(condition))):
        if c:
            return i
    return default


def resample_apply(*args, **kwargs):
    raise NotSupported('backtesting.lib.resample_apply is not supported: the audit gives the '
                       'strategy its own bars; compute the indicator over them')


class SignalStrategy:
    def __init_subclass__(cls, **kwargs):
        raise NotSupported('backtesting.lib.SignalStrategy is not supported: subclass '
                           'backtesting.Strategy with init() and next()')


class TrailingStrategy:
    def __init_subclass__(cls, **kwargs):
        raise NotSupported('backtesting.lib.TrailingStrategy is not supported: subclass '
                           'backtesting.Strategy and declare TRAILING_STOP as a constant')
