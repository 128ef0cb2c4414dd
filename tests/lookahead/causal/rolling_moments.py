# Expected: clean. Rolling std, var, skew, kurt, median and quantile, with and without
# min_periods: each value uses only its window of past bars.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"]
    r = c.pct_change()
    sd = r.rolling(48).std()
    va = r.rolling(48, min_periods=5).var()
    sk = r.rolling(48, min_periods=10).skew()
    ku = r.rolling(48).kurt()
    med = c.rolling(24, min_periods=1).median()
    q = c.rolling(24).quantile(0.8)
    long_ = (sk > 0) & (c > med) & (ku < 5) & (sd < va.pow(0.5) * 1.5)
    return np.where(long_, 1, np.where(c > q, -1, 0))
