# Expected: leak. A 24-bar rolling mean of the reversed series is a forward-looking window once
# reversed back: each bar averages the next 24.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"]
    fwd = c[::-1].rolling(24, min_periods=1).mean()[::-1]
    return np.where(fwd > c, 1, -1)
