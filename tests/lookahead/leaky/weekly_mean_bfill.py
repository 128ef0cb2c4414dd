# Expected: leak. The weekly mean from resample("W") is back-filled onto the hours of its week,
# so each hour sees the average of hours still to come.
import numpy as np
import pandas as pd


def signals(df):
    w = df["close"].resample("W").mean()
    w = w.reindex(df.index, method="bfill").ffill()
    return np.where(df["close"] < w, 1, -1)
