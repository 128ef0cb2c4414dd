# Expected: clean. Returns a float Series (np.sign of price minus its EMA) on df.index.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"]
    return np.sign(c - c.ewm(span=30).mean())
