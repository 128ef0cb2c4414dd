# Expected: leak. Min-max scales the close by the minimum and maximum of the whole column;
# with the future hidden the range, and so the bands, are different.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"]
    x = (c - c.min()) / (c.max() - c.min())
    return np.where(x < 0.3, 1, np.where(x > 0.7, -1, 0))
