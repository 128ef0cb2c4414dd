# Expected: clean. Bollinger-style mean reversion on rolling(50, min_periods=10); NaN early bars
# stay flat.
import numpy as np


def signals(df):
    c = df["close"]
    m = c.rolling(50, min_periods=10).mean()
    s = c.rolling(50, min_periods=10).std()
    z = (c - m) / s
    return np.where(z > 1.5, -1, np.where(z < -1.5, 1, 0))
