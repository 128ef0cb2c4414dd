# Expected: clean. A 72-bar Donchian breakout: long on a close above the prior channel's high,
# short below its low, held until the opposite breakout.
import numpy as np


def signals(df):
    c = df["close"]
    hi = df["high"].rolling(72).max().shift(1)
    lo = df["low"].rolling(72).min().shift(1)
    sig = np.where(c > hi, 1, np.where(c < lo, -1, 0))
    pos = np.zeros(len(c), dtype=int)
    for i in range(1, len(c)):
        pos[i] = sig[i] if sig[i] != 0 else pos[i - 1]
    return pos
