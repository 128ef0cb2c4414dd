"""ta.trend: ichimoku_base_line and KSTIndicator, as ta defines them. Like ta's, KSTIndicator
fills the first candles' earlier closes with the mean of the whole close series: a value of the
future, which the audit's look-ahead check judges like any other."""
import pandas as pd

from ta.utils import fill, refuse


def ichimoku_base_line(high, low, window1=9, window2=26, visual=False, fillna=False):
    """Kijun-sen: the mid-point of the `window2` highest high and lowest low."""
    first = 0 if fillna else window2
    base = 0.5 * (high.rolling(window2, min_periods=first).max() +
                  low.rolling(window2, min_periods=first).min())
    return pd.Series(fill(base, fillna, -1), name='ichimoku_base_%d_%d' % (window1, window2))


class KSTIndicator:
    """Know Sure Thing: 100 x the weighted sum (1, 2, 3, 4) of four rates of change (over roc1..roc4
    candles), each averaged over window1..window4 candles; its signal the nsig mean of it."""

    def __init__(self, close, roc1=10, roc2=15, roc3=20, roc4=30, window1=10, window2=10,
                 window3=10, window4=15, nsig=9, fillna=False):
        self._fillna = fillna
        total = 0
        for weight, (r, w) in enumerate(((roc1, window1), (roc2, window2), (roc3, window3),
                                         (roc4, window4)), start=1):
            before = close.shift(r, fill_value=close.mean())
            rate = ((close - before) / before).rolling(w, min_periods=0 if fillna else w).mean()
            total = total + weight * rate
        self._kst = 100 * total
        self._sig = self._kst.rolling(nsig, min_periods=0).mean()

    def kst(self):
        return pd.Series(fill(self._kst, self._fillna, 0), name='kst')

    def kst_sig(self):
        return pd.Series(fill(self._sig, self._fillna, 0), name='kst_sig')

    def kst_diff(self):
        return pd.Series(fill(self._kst - self._sig, self._fillna, 0), name='kst_diff')


def __getattr__(name):
    return refuse('ta.trend', name)
