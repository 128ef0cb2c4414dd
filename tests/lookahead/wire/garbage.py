# Expected: bad_output "not -1, 0 or 1". At its 50th decision the bot answers, in turn and
# well-formed, a value that is no signal (5) before the loop's own answer.
import os
import struct
import numpy as np

calls = [0]


def signals(df):
    calls[0] += 1
    if calls[0] == 50:
        os.write(3, struct.pack("=Ib", calls[0] - 1, 5))
    return np.zeros(len(df), dtype=int)
