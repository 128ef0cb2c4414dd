# Expected: leak. Every signal is relative to df["close"].iloc[-1], the last close of the
# history it is given: in the full run that is a price from the end of the data.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"]
    return np.where(c < c.iloc[-1], 1, -1)
