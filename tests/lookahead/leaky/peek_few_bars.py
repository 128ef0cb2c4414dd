# Expected: leak. Honest moving-average crossover, except on one bar in 400 where it looks three
# bars ahead; the sparse peek is still caught because such bars flip the position.
import numpy as np


def signals(df):
    c = df["close"].to_numpy()
    fast = df["close"].rolling(10, min_periods=1).mean().to_numpy()
    slow = df["close"].rolling(40, min_periods=1).mean().to_numpy()
    out = np.where(fast > slow, 1, -1)
    for t in range(0, len(c) - 3, 400):
        out[t] = 1 if c[t + 3] > c[t] else -1
    return out
