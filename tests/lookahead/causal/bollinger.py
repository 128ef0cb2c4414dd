# Expected: clean. Mean reversion on 48-bar Bollinger bands: long below the lower band, short
# above the upper, flat once back inside the middle.
import numpy as np


def signals(df):
    c = df["close"]
    mid = c.rolling(48).mean()
    sd = c.rolling(48).std()
    pos = np.zeros(len(c), dtype=int)
    z = ((c - mid) / sd).to_numpy()
    for i in range(1, len(c)):
        pos[i] = pos[i - 1]
        if np.isnan(z[i]):
            continue
        if z[i] < -2:
            pos[i] = 1
        elif z[i] > 2:
            pos[i] = -1
        elif abs(z[i]) < 0.25:
            pos[i] = 0
    return pos
