# Expected: the audit ends within AUDIT_S and a little more, and does not pass. An honest trend
# rule that sleeps just under the wall clock in every run, so an unbounded look-ahead check of
# its thousands of points would take days.
import time

import numpy as np

STALL_S = float("@STALL_S@")


def signals(df):
    time.sleep(STALL_S)
    fast = df["close"].ewm(span=12, adjust=False).mean()
    slow = df["close"].ewm(span=96, adjust=False).mean()
    return np.where(fast > slow * 1.002, 1, np.where(fast < slow * 0.998, -1, 0))
