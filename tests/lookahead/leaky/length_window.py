# Expected: leak. The window length is len(df) // 10, so the full run averages over a
# different window than a run shown less history.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"]
    m = c.rolling(max(2, len(df) // 10), min_periods=1).mean()
    return np.where(c > m, 1, -1)
