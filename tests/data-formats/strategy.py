"""Uses every field of a bar and its time, so two layouts agree only if they load the same bars."""
import numpy as np


def signals(df):
    body = (df["close"] - df["open"]) / (df["high"] - df["low"] + 1e-9)
    weekday = np.asarray(df.index.dayofweek if hasattr(df.index, "dayofweek") else np.zeros(len(df)))
    s = np.where(body > 0.2, 1, np.where(body < -0.2, -1, 0))
    return np.where(weekday == 2, 0, s)
