# Expected: leak. A slow feature sampled every 12 bars is filled in with interpolate(), which
# draws a line towards the next sample: bars between samples see the future one.
import numpy as np


def signals(df):
    c = df["close"].copy()
    pos = np.arange(len(c))
    sampled = c.where(pos % 12 == 0)
    line = sampled.interpolate()
    return np.where(line > c, 1, -1)
