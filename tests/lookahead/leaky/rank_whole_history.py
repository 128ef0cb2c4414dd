# Expected: leak. Ranks each bar's return against every return in the history, later ones included.
import numpy as np


def signals(df):
    r = df["close"].pct_change().fillna(0.0)
    pct = r.rank(pct=True)
    return np.where(pct > 0.7, 1, np.where(pct < 0.3, -1, 0))
