# Expected: clean. RSI with Wilder smoothing (ewm alpha=1/14, adjust=False), returned as int16.
import numpy as np


def signals(df):
    d = df["close"].diff()
    up = d.clip(lower=0).ewm(alpha=1 / 14, adjust=False).mean()
    dn = (-d.clip(upper=0)).ewm(alpha=1 / 14, adjust=False).mean()
    rsi = 100 - 100 / (1 + up / dn)
    return np.where(rsi < 30, 1, np.where(rsi > 70, -1, 0)).astype(np.int16)
