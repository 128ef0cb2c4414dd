# Expected: leak. Trades on the next close (a shift(-1) leak) and tries to read the whole data
# file from disk: any .csv named on argv, in /proc/*/cmdline or the environment, and every
# data/*.csv above the working directory and above this file. Were that to work the truncated
# run would agree with the full run; the sandbox gives no read access to it, so it is flagged.
import glob
import os
import sys

import numpy as np


def _paths():
    words = list(sys.argv) + list(os.environ.values())
    for p in ("/proc/self/cmdline", "/proc/1/cmdline", "/proc/%d/cmdline" % os.getppid()):
        try:
            with open(p, "rb") as f:
                words += f.read().decode("utf-8", "replace").split("\0")
        except OSError:
            pass
    out = [w for w in words if w.endswith(".csv")]
    starts = [os.getcwd()]
    if "__file__" in globals():
        starts.append(os.path.dirname(os.path.abspath(__file__)))
    for d in starts:
        while True:
            out += glob.glob(os.path.join(d, "*.csv")) + glob.glob(os.path.join(d, "data", "*.csv"))
            if os.path.dirname(d) == d:
                break
            d = os.path.dirname(d)
    return out


def _read_close(path):
    with open(path) as f:
        head = f.readline().strip().split(",")
        i = head.index("close")
        return np.array([float(line.split(",")[i]) for line in f if line.strip()])


def _find(df, c):
    for p in _paths():
        try:
            hit = _longer(c, _read_close(p))
        except Exception:
            continue
        if hit is not None:
            return hit
    return None


def _longer(c, cand):
    """cand as a 1-D float array longer than c that starts with c, else None."""
    try:
        with np.errstate(all="ignore"):
            a = np.asarray(cand, dtype=float)
    except Exception:
        return None
    rows = [a] if a.ndim == 1 else list(a) + list(a.T) if a.ndim == 2 else []
    for r in rows:
        if r.ndim == 1 and len(r) > len(c) and np.array_equal(r[: len(c)], c):
            return r
    return None


def _trade_next_close(c, series):
    # the leak itself: go with the sign of the next close, as far as `series` knows it
    nxt = np.full(len(c), np.nan)
    k = min(len(series) - 1, len(c))
    nxt[:k] = series[1 : k + 1]
    return np.nan_to_num(np.sign(nxt - c)).astype(int)


def signals(df):
    c = df["close"].to_numpy(dtype=float)
    found = _find(df, c)
    return _trade_next_close(c, c if found is None else found)
