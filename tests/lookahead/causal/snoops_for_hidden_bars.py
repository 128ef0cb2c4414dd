# Expected: clean, because the sandbox leaves nothing to find. The signal is lagged momentum,
# exactly as in lagged_momentum.py, but the strategy first hunts for bars it was not given:
# the numpy .base chain, gc.get_objects(), module globals, the data file on disk, scratch files
# and builtins left by an earlier run, the environment and argv. If it ever finds more bars than
# len(df) it reverses every signal, so any open channel turns into a mismatch. Run outside the
# sandbox (a plain df.iloc[:t+1] in one process) it is flagged.
import builtins
import gc
import glob
import os
import sys
import tempfile

import numpy as np
import pandas as pd

NAME = "strataudit_seen.npy"


def _longer(c, cand):
    try:
        with np.errstate(all="ignore"):
            a = np.asarray(cand, dtype=float)
    except Exception:
        return False
    rows = [a] if a.ndim == 1 else list(a) + list(a.T) if a.ndim == 2 else []
    return any(r.ndim == 1 and len(r) > len(c) and np.array_equal(r[: len(c)], c) for r in rows)


def _bases(df):
    for a in [df["close"].to_numpy(), df.to_numpy()] + [b.values for b in df._mgr.blocks]:
        while isinstance(a, np.ndarray):
            yield a
            a = a.base


def _heap():
    for o in gc.get_objects():
        if isinstance(o, pd.DataFrame) and "close" in o.columns:
            yield o["close"].to_numpy()
        elif isinstance(o, (pd.Series, np.ndarray)):
            yield o
        elif isinstance(o, dict):
            yield from (v for v in list(o.values()) if isinstance(v, (np.ndarray, pd.Series)))


def _globals():
    for m in list(sys.modules.values()) + [builtins]:
        for v in list(getattr(m, "__dict__", {}).values()):
            if isinstance(v, (np.ndarray, pd.Series)):
                yield v


def _read_close(path):
    with open(path) as f:
        i = f.readline().strip().split(",").index("close")
        return np.array([float(line.split(",")[i]) for line in f if line.strip()])


def _files():
    words = list(sys.argv) + list(os.environ.values())
    try:
        with open("/proc/self/cmdline", "rb") as f:
            words += f.read().decode("utf-8", "replace").split("\0")
    except OSError:
        pass
    paths = [w for w in words if w.endswith(".csv")]
    d = os.getcwd()
    while True:
        paths += glob.glob(os.path.join(d, "data", "*.csv"))
        if os.path.dirname(d) == d:
            break
        d = os.path.dirname(d)
    for p in paths:
        try:
            yield _read_close(p)
        except Exception:
            continue


def _scratch(c):
    dirs = [os.getcwd(), tempfile.gettempdir()]
    for d in dirs:
        try:
            yield np.load(os.path.join(d, NAME))
        except Exception:
            pass
    yield getattr(builtins, "_strataudit_seen", None)
    builtins._strataudit_seen = c
    for d in dirs:
        try:
            np.save(os.path.join(d, NAME), c)
        except Exception:
            pass


def _found_more(df, c):
    for source in (_bases(df), _heap(), _globals(), _files(), _scratch(c)):
        try:
            for cand in source:
                if cand is not None and _longer(c, cand):
                    return True
        except Exception:
            continue
    return False


def signals(df):
    c = df["close"]
    mom = np.sign(c.shift(1) / c.shift(24) - 1.0).fillna(0).astype(int)
    return -mom if _found_more(df, c.to_numpy(dtype=float)) else mom
