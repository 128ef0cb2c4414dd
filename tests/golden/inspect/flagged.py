import numpy as np
import os
from finta import TA


def signals(df):
    cls = ().__class__
    path = "{0}".format(os.sep)
    future = df["close"].shift(-1)
    z = (df["close"] - df["close"].mean()) / df["close"].std()
    smooth = df["close"].rolling(10, center=True).mean().bfill()
    return np.where((future > df["close"]) & (z > 0), 1, -1)
