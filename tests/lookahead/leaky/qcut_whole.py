# Expected: leak. pd.qcut bins hourly returns into quintiles of the whole column, so the bin
# edges come from the future.
import numpy as np
import pandas as pd


def signals(df):
    r = df["close"].pct_change().fillna(0.0)
    q = pd.qcut(r, 5, labels=False)
    return np.where(q == 4, -1, np.where(q == 0, 1, 0))
