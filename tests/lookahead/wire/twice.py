# Expected: bad_output "given twice or out of turn". A live bot that answers twice: at its 50th
# decision it writes a well-formed answer of its own (numbered as the host numbers it) on the
# result descriptor, then the loop's answer follows with the same number. The driver counts its
# own bars, not the bot's answers: the second answer is out of turn, whenever the driver reads it.
# Also: "before it was sent". When both answers reach the driver in one read, before it has sent
# the next bar, the second is an answer for a bar not yet sent: the same fault, named so.
import os
import struct
import numpy as np

calls = [0]


def signals(df):
    calls[0] += 1
    if calls[0] == 50:
        os.write(3, struct.pack("=Ib", calls[0] - 1, 0))
    return np.zeros(len(df), dtype=int)
