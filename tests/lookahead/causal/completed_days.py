# Expected: clean. Daily close, high and low taken only from completed days:
# resample("1D").last()/max()/min().shift(1), reindexed onto the hours with ffill.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"]
    prev = c.resample("1D").last().shift(1).reindex(df.index, method="ffill")
    hi = df["high"].resample("1D").max().shift(1).reindex(df.index, method="ffill")
    lo = df["low"].resample("1D").min().shift(1).reindex(df.index, method="ffill")
    out = np.where(c > hi, 1, np.where(c < lo, -1, 0))
    return np.where(prev.isna(), 0, out)
