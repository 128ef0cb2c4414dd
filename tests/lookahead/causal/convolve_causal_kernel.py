# Expected: clean. np.convolve in "full" mode truncated to len(df) is a causal filter: output
# t only sums bars t-k+1..t.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"].to_numpy()
    sma = np.convolve(c, np.ones(20) / 20)[:len(c)]
    w = np.exp(-np.arange(30) / 8.0)
    ema = np.convolve(c, w / w.sum(), mode="full")[:len(c)]
    return np.where(ema > sma, 1, -1)
