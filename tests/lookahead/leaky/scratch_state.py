# Expected: leak. Trades on the next close (a shift(-1) leak); every run saves the closes it saw
# to scratch places (working directory, temp dirs, /dev/shm, home, a builtins attribute) and
# reads back what an earlier, longer run left. Were that to work, a run shown fewer bars would
# borrow the future from a run shown more; each run gets fresh scratch and a fresh fork, so it
# is flagged.
import builtins
import os
import tempfile

import numpy as np

NAME = "strataudit_closes.npy"


def _dirs():
    return [os.getcwd(), tempfile.gettempdir(), "/tmp", "/dev/shm", os.path.expanduser("~")]


def _find(df, c):
    best = None
    for cand in [getattr(builtins, "_strataudit_closes", None)] + [os.path.join(d, NAME) for d in _dirs()]:
        try:
            arr = np.load(cand) if isinstance(cand, str) else cand
        except Exception:
            continue
        hit = _longer(c, arr) if arr is not None else None
        if hit is not None and (best is None or len(hit) > len(best)):
            best = hit
    keep = c if best is None else best
    builtins._strataudit_closes = keep
    for d in _dirs():
        try:
            np.save(os.path.join(d, NAME), keep)
        except Exception:
            pass
    return best


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
