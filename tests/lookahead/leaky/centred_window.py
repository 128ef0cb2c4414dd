# Expected: leak. A 24-bar moving average with center=True averages 12 bars that lie in the future.
import numpy as np


def signals(df):
    ma = df["close"].rolling(24, center=True, min_periods=1).mean()
    return np.where(df["close"] > ma, 1, -1)
