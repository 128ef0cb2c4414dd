# Expected: clean. expanding mean, std, max and rank(pct=True): unlike a whole-column rank,
# an expanding rank only compares each bar with the bars before it.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"]
    z = (c - c.expanding().mean()) / c.expanding(min_periods=10).std()
    mx = c.expanding().max()
    rk = c.pct_change().expanding(min_periods=20).rank(pct=True)
    return np.where((z < -1) | (rk < 0.1), 1, np.where((c >= mx) | (rk > 0.9), -1, 0))
