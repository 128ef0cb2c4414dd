"""Honest trend-follower: EMA 12/96 with a 0.2 % band, past bars only, one parameter set."""
import numpy as np


def signals(df):
    # ewm(adjust=False) is recursive: each value uses only bars up to its own close.
    fast = df["close"].ewm(span=12, adjust=False).mean()
    slow = df["close"].ewm(span=96, adjust=False).mean()
    gap = fast / slow - 1.0
    # Inside the band the trend is not clear enough to pay the costs of trading it: stay flat.
    return np.where(gap > 0.002, 1, np.where(gap < -0.002, -1, 0))
