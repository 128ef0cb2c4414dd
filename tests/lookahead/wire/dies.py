# Expected: bad_output "ended after". The bot exits cleanly mid-stream, at its 50th decision.
import os
import numpy as np

calls = [0]


def signals(df):
    calls[0] += 1
    if calls[0] == 50:
        os._exit(0)
    return np.zeros(len(df), dtype=int)
