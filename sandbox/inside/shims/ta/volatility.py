"""ta.volatility: keltner_channel_wband and donchian_channel_pband, as ta defines them."""
import pandas as pd

from sa_frameworks import NotSupported
from ta.utils import fill, refuse


def keltner_channel_wband(high, low, close, window=20, window_atr=10, fillna=False,
                          original_version=True):
    """The Keltner channel's width over its centre line, in percent. The original version: the
    centre is the `window` mean of the typical price, the bands the `window` means of
    (4h - 2l + c) / 3 and (-2h + 4l + c) / 3."""
    if not original_version:
        raise NotSupported('ta.volatility.keltner_channel_wband(original_version=False) is not '
                           'supported: the sandbox\'s ta provides its original version only')
    first = 1 if fillna else window
    centre = ((high + low + close) / 3.0).rolling(window, min_periods=first).mean()
    upper = ((4 * high - 2 * low + close) / 3.0).rolling(window, min_periods=0).mean()
    lower = ((-2 * high + 4 * low + close) / 3.0).rolling(window, min_periods=0).mean()
    return pd.Series(fill((upper - lower) / centre * 100, fillna, 0), name='bbiwband')


def donchian_channel_pband(high, low, close, window=10, offset=0, fillna=False):
    """Where the close stands between the `window` lowest low (0) and highest high (1), shifted
    by offset candles."""
    first = 1 if fillna else window
    hi = high.rolling(window, min_periods=first).max()
    lo = low.rolling(window, min_periods=first).min()
    band = fill((close - lo) / (hi - lo), fillna, 0)
    if offset != 0:
        band = band.shift(offset)
    return pd.Series(band, name='dcpband')


def __getattr__(name):
    return refuse('ta.volatility', name)
