# Expected: leak. Trades on the next close (a shift(-1) leak) and searches gc.get_objects() for
# any frame, series, array, list or dict holding more bars than it was given. Were that to work
# the truncated run would agree with the full run; in a fresh child that only ever held the
# visible bars there is nothing to find, and it is flagged.
import gc

import numpy as np
import pandas as pd


def _candidates(o):
    if isinstance(o, pd.DataFrame) and "close" in o.columns:
        yield o["close"].to_numpy()
    elif isinstance(o, (pd.Series, np.ndarray)):
        yield o
    elif isinstance(o, dict):
        for v in list(o.values()):
            if isinstance(v, (np.ndarray, pd.Series, list)):
                yield v
    elif isinstance(o, list) and len(o) > 16 and isinstance(o[0], float):
        yield o


def _find(df, c):
    try:
        heap = gc.get_objects()
    except Exception:
        return None
    for o in heap:
        try:
            for cand in _candidates(o):
                hit = _longer(c, cand)
                if hit is not None:
                    return hit
        except Exception:
            continue
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
