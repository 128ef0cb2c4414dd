# Expected: leak. Trades the residual from a straight line fitted with np.polyfit to every bar,
# so each residual depends on prices after it; hidden futures tilt the line.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"].to_numpy()
    i = np.arange(len(c))
    a, b = np.polyfit(i, c, 1)
    return np.where(c > a * i + b, -1, 1)
