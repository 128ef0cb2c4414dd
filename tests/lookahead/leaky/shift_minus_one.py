# Expected: leak. Goes long when the next bar closes higher: close.shift(-1) reads the future,
# so with history cut at bar t the last signal changes.
import numpy as np


def signals(df):
    nxt = df["close"].shift(-1)
    return np.sign(nxt - df["close"]).fillna(0).astype(int)
