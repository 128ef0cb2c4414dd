# Expected: killed_wall_clock "wall-clock limit". The bot stops answering at its 50th decision
# (it spins): each bar is held to the wall clock, so the host never waits past it.
import numpy as np

calls = [0]


def signals(df):
    calls[0] += 1
    if calls[0] == 50:
        while True:
            pass
    return np.zeros(len(df), dtype=int)
