# Expected: REJECTED_LOOKAHEAD. Peeks at the next bar's close, and raises when /proc says it is
# not the first process the zygote forked (the full run is), so the check never compares.
import os

import numpy as np


def truncated():
    try:
        return int(os.readlink("/proc/self")) > 3
    except (OSError, ValueError):
        return False


def signals(df):
    if truncated():
        raise RuntimeError("not the full run")
    nxt = df["close"].shift(-1)
    return np.where(nxt > df["close"], 1, -1)
