# Expected: clean. Breakout on rolling highs and lows, returned as a pandas Series of int64.
import numpy as np
import pandas as pd


def signals(df):
    hi = df["high"].rolling(48, min_periods=1).max().shift(1)
    lo = df["low"].rolling(48, min_periods=1).min().shift(1)
    c = df["close"]
    s = np.where(c > hi, 1, np.where(c < lo, -1, 0))
    return pd.Series(s.astype(np.int64), index=df.index).replace(0, np.nan).ffill().fillna(0).astype(np.int64)
