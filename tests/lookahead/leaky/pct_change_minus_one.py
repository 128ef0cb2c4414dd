# Expected: leak. pct_change(-1) and diff(-1) look backwards from the next bar: both are the
# next return in disguise.
import numpy as np
import pandas as pd


def signals(df):
    r = df["close"].pct_change(-1).fillna(0.0)
    d = df["close"].diff(-1).fillna(0.0)
    return np.where((r < 0) & (d < 0), 1, np.where((r > 0) & (d > 0), -1, 0))
