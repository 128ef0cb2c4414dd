# Expected: clean. Long memory, no future: the position is the parity of the up bars counted
# since the first bar, so a run started later than bar 0 disagrees wherever its count's parity
# does, however long its history. Every window it is given disagrees; each is run again over
# the whole prefix, which agrees, so nothing is flagged and the window grows.
import numpy as np


def signals(df):
    c = df["close"].to_numpy()
    ups = np.concatenate(([0], np.cumsum(np.diff(c) > 0)))
    return np.where(ups % 2 == 0, 1, -1)
