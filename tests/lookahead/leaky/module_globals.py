# Expected: leak. Trades on the next close (a shift(-1) leak) and looks through the globals of
# every loaded module, and builtins, for something holding more bars than it was given. Were
# that to work the truncated run would agree with the full run; the sandbox builds the frame in
# a child that never held the hidden bars, so it is flagged.
import builtins
import sys

import numpy as np
import pandas as pd


def _values(ns):
    for v in list(ns.values()):
        if isinstance(v, pd.DataFrame) and "close" in v.columns:
            yield v["close"].to_numpy()
        elif isinstance(v, (np.ndarray, pd.Series, list)):
            yield v
        elif isinstance(v, dict):
            for w in list(v.values()):
                if isinstance(w, (np.ndarray, pd.Series)):
                    yield w


def _find(df, c):
    spaces = [vars(builtins)]
    for m in list(sys.modules.values()):
        try:
            spaces.append(vars(m))
        except TypeError:
            continue
    for ns in spaces:
        try:
            for v in _values(ns):
                hit = _longer(c, v)
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
