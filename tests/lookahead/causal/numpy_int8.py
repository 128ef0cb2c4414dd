# Expected: clean. Returns a numpy int8 array from a 20/60 moving-average crossover.
import numpy as np


def signals(df):
    c = df["close"]
    fast = c.rolling(20, min_periods=1).mean().to_numpy()
    slow = c.rolling(60, min_periods=1).mean().to_numpy()
    return np.where(fast > slow, 1, -1).astype(np.int8)
