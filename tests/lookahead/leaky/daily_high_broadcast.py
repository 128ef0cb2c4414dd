# Expected: leak. groupby(date).transform("max") broadcasts the whole day's high to every hour,
# so at 01:00 the strategy already knows the high of the day.
import numpy as np
import pandas as pd


def signals(df):
    h = df["high"].groupby(df.index.date).transform("max")
    return np.where(df["close"] >= h * 0.999, -1, 1)
