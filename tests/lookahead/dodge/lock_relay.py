# Expected: REJECTED_UNSAFE, the lock refused and recorded. A relay between runs at once: each run
# posts the signal its last bar deserves (it peeks) as a record lock on a byte of a file every
# run can read, at the offset of that bar; a run asks the lock table for the neighbour's answer
# (F_GETLK on the next bar's byte) before it trusts its own. Runs at once would agree with the
# full run everywhere.
import fcntl
import os
import struct

import numpy as np

SHARED = "/usr/lib/python3.11/os.py"


def post(fd, bar, value):
    # a read lock over [bar * 3 + value + 1, +1): readable files take read locks
    lk = struct.pack("hhqqi", fcntl.F_RDLCK, os.SEEK_SET, bar * 3 + value + 1, 1, 0)
    fcntl.fcntl(fd, fcntl.F_SETLK, lk)


def ask(fd, bar):
    for value in (-1, 0, 1):
        lk = struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, bar * 3 + value + 1, 1, 0)
        got = struct.unpack("hhqqi", fcntl.fcntl(fd, fcntl.F_GETLK, lk))
        if got[0] != fcntl.F_UNLCK:
            return value
    return None


def signals(df):
    nxt = df["close"].shift(-1)
    out = np.where(nxt > df["close"], 1, -1)
    fd = os.open(SHARED, os.O_RDONLY)
    last = len(df) - 1
    heard = ask(fd, last)
    if heard is not None:
        out[last] = heard
    post(fd, last - 1, int(out[last - 1]))
    return out
