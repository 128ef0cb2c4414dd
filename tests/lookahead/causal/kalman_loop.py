# Expected: clean. A scalar Kalman filter of the close, updated bar by bar; returns int8.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"].to_numpy()
    x, p = c[0], 1.0
    q, r = 1e-3 * c[0], 1e-2 * c[0]
    est = np.empty(len(c))
    for i, z in enumerate(c):
        p += q
        k = p / (p + r)
        x += k * (z - x)
        p *= 1 - k
        est[i] = x
    return np.sign(c - est).astype(np.int8)
