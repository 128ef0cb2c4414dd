# Expected: clean. The recursive form ewm(adjust=False) with a deadband that can stay flat.
import numpy as np


def signals(df):
    c = df["close"]
    fast = c.ewm(alpha=0.2, adjust=False).mean()
    slow = c.ewm(alpha=0.03, adjust=False).mean()
    gap = (fast - slow) / slow
    return np.where(gap > 0.002, 1, np.where(gap < -0.002, -1, 0))
