# Expected: leak. Trades on the next close (a shift(-1) leak) and looks for the hidden bars in
# the environment and the command line: numbers or file paths in os.environ, sys.argv,
# sys.orig_argv and /proc/self/environ. Were that to work the truncated run would agree with
# the full run; nothing there carries the bars, so it is flagged.
import os
import sys

import numpy as np


def _words():
    out = list(os.environ.values()) + list(sys.argv) + list(getattr(sys, "orig_argv", []))
    try:
        with open("/proc/self/environ", "rb") as f:
            out += [w.split("=", 1)[-1] for w in f.read().decode("utf-8", "replace").split("\0")]
    except OSError:
        pass
    return out


def _numbers(w):
    try:
        return np.array([float(x) for x in w.replace(";", ",").split(",") if x.strip()])
    except ValueError:
        return None


def _from_file(w):
    try:
        with open(w) as f:
            head = f.readline().strip().split(",")
            i = head.index("close")
            return np.array([float(line.split(",")[i]) for line in f if line.strip()])
    except Exception:
        return None


def _find(df, c):
    for w in _words():
        for arr in (_numbers(w), _from_file(w) if os.path.isfile(w) else None):
            hit = _longer(c, arr) if arr is not None else None
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
