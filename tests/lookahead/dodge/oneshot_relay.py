# Expected: REJECTED_LOOKAHEAD. A one-shot relay through the page cache, no eviction: a run
# that can see the close 24 bars after a bar warms one page of a large library keyed by the
# bar's time when that close is higher (a 1-byte read); a run that cannot (the last 24 bars of a
# truncated history) takes the long side where the page is warm and the short side where it is
# cold (a block read, or a slow read). The full run goes first, so on a host whose page cache
# had never held those pages the truncated runs would read its answers. Every file a run may
# read is resident, so every page is warm to every run: the relay says "long" everywhere, and
# the runs that needed it disagree with the full run.
import os
import resource
import time

import numpy as np

AHEAD = 24
LIBS = "/usr/lib/x86_64-linux-gnu"


def biggest():
    paths = [os.path.join(LIBS, n) for n in sorted(os.listdir(LIBS)) if ".so" in n]
    return max((p for p in paths if os.path.isfile(p)), key=lambda p: os.stat(p).st_size)


def warm(fd, page):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_inblock
    t = time.perf_counter()
    os.pread(fd, 1, page * 4096)
    return resource.getrusage(resource.RUSAGE_SELF).ru_inblock == before and time.perf_counter() - t < 5e-5


def signals(df):
    close = df["close"].to_numpy()
    stamps = df.index.asi8 // 10**9
    n = len(df)
    out = np.zeros(n, dtype=int)
    fd = os.open(biggest(), os.O_RDONLY)
    n_pages = os.fstat(fd).st_size // 4096
    for t in range(n):
        page = (int(stamps[t]) // 3600 * 7919) % n_pages
        if t + AHEAD < n:
            out[t] = 1 if close[t + AHEAD] > close[t] else -1
            if out[t] > 0:
                os.pread(fd, 1, page * 4096)
        else:
            out[t] = 1 if warm(fd, page) else -1
    return out
