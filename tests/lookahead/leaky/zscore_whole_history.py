# Expected: leak. The z-score uses the mean and standard deviation of the whole history, so every
# earlier bar's signal depends on prices that came later.
import numpy as np


def signals(df):
    c = df["close"]
    z = (c - c.mean()) / c.std()
    return np.where(z > 0.25, -1, np.where(z < -0.25, 1, 0))
