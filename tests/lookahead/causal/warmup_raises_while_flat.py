# Expected: clean. Needs bar 299 as its base, so a run shown fewer than 300 bars raises
# IndexError; but the strategy is flat over those bars, so the backtest held nothing there
# that could not have been held, and those failed runs are listed without spoiling "clean".
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"].to_numpy()
    base = c[299]
    out = np.zeros(len(c), dtype=int)
    out[300:] = np.where(c[300:] > base * 1.02, 1, np.where(c[300:] < base * 0.98, -1, 0))
    return out
