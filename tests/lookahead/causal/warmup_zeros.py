# Expected: clean. Flat for a 200-bar warm-up, then above or below the mean of the previous
# 200 closes; a plain Python loop.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"].to_numpy()
    out = np.zeros(len(c), dtype=int)
    for i in range(200, len(c)):
        out[i] = 1 if c[i] > c[i - 200:i].mean() else -1
    return out
