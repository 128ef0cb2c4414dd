# Expected: clean. Intraday VWAP from running sums within each day (groupby date cumsum),
# which only accumulates the hours so far.
import numpy as np
import pandas as pd


def signals(df):
    tp = (df["high"] + df["low"] + df["close"]) / 3
    day = df.index.date
    vwap = (tp * df["volume"]).groupby(day).cumsum() / df["volume"].groupby(day).cumsum()
    return np.where(df["close"] > vwap, 1, -1)
