# Expected: leak. An EMA crossover that, once long, delays its exit while the next bar closes higher
# (shift(-1)). The peek never changes the position where it acts, it only moves the exit later;
# it is caught because the bar before each position change is checked too.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"]
    up = (c.ewm(span=24, adjust=False).mean() > c.ewm(span=96, adjust=False).mean()).to_numpy()
    nxt = c.shift(-1).to_numpy()
    cv = c.to_numpy()
    out = np.zeros(len(cv), dtype=int)
    pos = 0
    for i in range(len(cv)):
        if up[i]:
            pos = 1
        elif pos == 1 and not nxt[i] > cv[i]:
            pos = 0
        out[i] = pos
    return out
