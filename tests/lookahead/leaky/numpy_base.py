# Expected: leak. Trades on the next close (a shift(-1) leak) and, when shown a truncated
# history, walks the numpy .base chain of the columns and the frame's blocks looking for the
# bars it was not given. Were that to work the truncated run would agree with the full run and
# the leak would hide; given only copies of the visible bars, it is flagged.
import numpy as np


def _find(df, c):
    starts = [df["close"].to_numpy(), df["close"].values, df.to_numpy()]
    try:
        starts += [b.values for b in df._mgr.blocks]
    except Exception:
        pass
    for a in starts:
        while a is not None:
            hit = _longer(c, a)
            if hit is not None:
                return hit
            a = getattr(a, "base", None)
            a = a if isinstance(a, np.ndarray) else None
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
