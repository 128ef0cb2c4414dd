# Expected: killed_wall_clock "wall-clock limit". The bot reads descriptor 0 itself, hoping for
# the next bar: there is none until it answers, so it waits, and is killed at the wall clock.
import os
import numpy as np

calls = [0]


def signals(df):
    calls[0] += 1
    if calls[0] == 50:
        os.read(0, 48)
    return np.zeros(len(df), dtype=int)
