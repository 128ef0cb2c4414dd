# Expected: leak. np.gradient takes central differences, (c[t+1] - c[t-1]) / 2, inside the
# series: half of each slope is the next bar.
import numpy as np
import pandas as pd


def signals(df):
    g = np.gradient(df["close"].to_numpy())
    return np.sign(g).astype(int)
