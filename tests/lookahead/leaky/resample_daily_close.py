# Expected: leak. resample("D").last() labels the day's final close with the day's midnight; after
# reindex + ffill, every bar of the day compares itself with that evening's close.
import numpy as np


def signals(df):
    c = df["close"]
    daily = c.resample("D").last()
    evening = daily.reindex(c.index, method="ffill")
    return np.where(evening > c, 1, -1)
