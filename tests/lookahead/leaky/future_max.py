# Expected: leak. The reverse cumulative max is the highest price still to come.
import numpy as np


def signals(df):
    c = df["close"]
    ahead = c[::-1].cummax()[::-1]
    return np.where(ahead > c, 1, 0)
