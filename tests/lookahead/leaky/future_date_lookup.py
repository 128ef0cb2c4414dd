# Expected: leak. Anchors every signal to the close of a hard-coded later date. Shown the bars
# before that date, the lookup raises (KeyError): the run fails where the backtest holds a
# position, so that position could not have been taken then. Not a mismatch, but not clean.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"]
    ref = c.loc["2024-02-20 12:00"]
    return np.where(c < ref, 1, -1)
