# Expected: REJECTED_LOOKAHEAD (or INCOMPLETE when every run looks alike to it). Peeks at the next
# bar's close, and raises when its frame looks like a truncated run's (a strided view of someone
# else's columns rather than a copy of its own), so the check never compares a signal.
import numpy as np


def truncated(df):
    c = df["close"].to_numpy()
    return not c.flags.owndata and c.base is not None and c.strides[0] == 8 and \
        df._mgr.blocks[0].values.strides[0] != 8 * 5


def signals(df):
    if truncated(df):
        raise RuntimeError("not the full run")
    nxt = df["close"].shift(-1)
    return np.where(nxt > df["close"], 1, -1)
