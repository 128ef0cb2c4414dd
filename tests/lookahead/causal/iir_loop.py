# Expected: clean. A two-pole smoothing filter written as a loop over bars (no scipy).
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"].to_numpy()
    a = np.exp(-1.414 * np.pi / 20)
    c2 = 2 * a * np.cos(1.414 * np.pi / 20)
    c3 = -a * a
    c1 = 1 - c2 - c3
    f = c.copy()
    for i in range(2, len(c)):
        f[i] = c1 * c[i] + c2 * f[i - 1] + c3 * f[i - 2]
    out = np.zeros(len(c), dtype=np.int64)
    out[2:] = np.where(f[2:] > f[1:-1], 1, -1)
    return out
