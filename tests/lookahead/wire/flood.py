# Expected: bad_output "out of turn". At its 50th decision the bot floods the result descriptor
# with 60000 zero bytes: none is counted as a decision.
import os
import numpy as np

calls = [0]


def signals(df):
    calls[0] += 1
    if calls[0] == 50:
        os.write(3, b"\x00" * 60000)
    return np.zeros(len(df), dtype=int)
