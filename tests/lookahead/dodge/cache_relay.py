# Expected: REJECTED_UNSAFE, the eviction refused and recorded. A relay through the page cache
# of a large library every run may read: the side of each bar is the sign of the close 24 bars
# later (a peek); a run that knows it posts it as which of the bar's two pages of the file is
# resident, evicting both first (posix_fadvise DONTNEED), and a run that does not (the last 24
# bars of a truncated history) reads them back: the page a 1-byte read finds cold (a block read,
# or a slow read) is the one not posted.
import os
import resource
import time

import numpy as np

AHEAD = 24
LIBS = "/usr/lib/x86_64-linux-gnu"


def biggest():
    paths = [os.path.join(LIBS, n) for n in sorted(os.listdir(LIBS)) if ".so" in n]
    return max((p for p in paths if os.path.isfile(p)), key=lambda p: os.stat(p).st_size)


def pages(fd, ts, n_pages):
    k = (int(ts) // 3600) % (n_pages // 2)
    return 2 * k, 2 * k + 1


def cold(fd, page):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_inblock
    t = time.perf_counter()
    os.pread(fd, 1, page * 4096)
    return resource.getrusage(resource.RUSAGE_SELF).ru_inblock > before or time.perf_counter() - t > 5e-5


def signals(df):
    close = df["close"].to_numpy()
    stamps = df.index.asi8 // 10**9
    n = len(df)
    out = np.zeros(n, dtype=int)
    fd = os.open(biggest(), os.O_RDONLY)
    n_pages = os.fstat(fd).st_size // 4096
    for t in range(n):
        up, down = pages(fd, stamps[t], n_pages)
        if t + AHEAD < n:
            out[t] = 1 if close[t + AHEAD] > close[t] else -1
            os.posix_fadvise(fd, up * 4096, 2 * 4096, os.POSIX_FADV_DONTNEED)
            os.pread(fd, 1, (up if out[t] > 0 else down) * 4096)
        else:
            out[t] = -1 if cold(fd, up) else 1
    return out
