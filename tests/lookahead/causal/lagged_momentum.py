# Expected: clean. Momentum on lagged returns: shift(1) and shift(24) look backwards only.
import numpy as np


def signals(df):
    c = df["close"]
    mom = c.shift(1) / c.shift(24) - 1.0
    return np.sign(mom).fillna(0).astype(int)
