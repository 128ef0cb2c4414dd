# Expected: leak. Compares the close with the close three bars later (shift(-3)), a peek
# further than one bar.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"]
    ahead = c.shift(-3)
    return np.where(ahead > c, 1, np.where(ahead < c, -1, 0))
