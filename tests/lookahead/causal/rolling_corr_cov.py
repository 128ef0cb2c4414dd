# Expected: clean. Rolling correlation and covariance of price and volume returns.
import numpy as np
import pandas as pd


def signals(df):
    r = df["close"].pct_change()
    vr = df["volume"].pct_change()
    cr = r.rolling(72, min_periods=20).corr(vr)
    cv = r.rolling(72).cov(vr)
    return np.where(cr > 0.05, 1, np.where(cv < 0, -1, 0))
