# Expected: clean. cumsum, cumprod and cummax of returns (equity, running peak, drawdown).
import numpy as np
import pandas as pd


def signals(df):
    r = df["close"].pct_change().fillna(0.0)
    eq = (1 + r).cumprod()
    dd = eq / eq.cummax() - 1
    cs = r.cumsum()
    return np.where(dd < -0.02, 1, np.where(cs.diff(24) > 0.01, -1, 0))
