# Expected: clean. A run's first large array starts within a page of a 2 MiB boundary, in the
# full run and in every truncated run: the zygote and the data zygote move malloc's free top
# onto a huge-page boundary before they fork (sandbox/inside/sbi_arena.c), so a run's new arrays fault
# in whole huge pages. Raises otherwise (a failed run is no clean check). Trades the sign of
# each bar's move.
import numpy as np


def signals(df):
    fresh = np.empty(1 << 19)
    off = fresh.ctypes.data % (2 << 20)
    if off >= 4096:
        raise RuntimeError("a new 4 MiB array starts %d bytes past a 2 MiB boundary" % off)
    c = df["close"].to_numpy()
    return np.sign(np.diff(c, prepend=c[0])).astype(int)
