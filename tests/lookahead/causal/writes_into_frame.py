# Expected: clean. Lagged momentum, as lagged_momentum.py, from a frame it then vandalises: its
# prices (through a column, the whole block and .values), its times, its column names and the
# index names are overwritten in place. Each call of a run must get a frame of its own, as a
# truncated full run does: should anything it wrote reach a later call's frame (the bars of a live
# replay are decided one call after another in one process), that call finds it and reverses
# every signal, and the live decisions disagree with the backtest.
import numpy as np
import pandas as pd


def _pristine(df):
    t = df.index.asi8
    return (list(df.columns) == ["open", "high", "low", "close", "volume"] and df.index.name == "time"
            and df.columns.name is None and bool(np.all(df.to_numpy() > 0))
            and bool(np.all(t > pd.Timestamp("2000-01-01").value)) and bool(np.all(np.diff(t) > 0)))


def _vandalise(df):
    for write in (lambda: df["close"].to_numpy().__setitem__(slice(None), -1.0),
                  lambda: df.values.__setitem__(slice(None), -2.0),
                  lambda: df._mgr.blocks[0].values.__setitem__(slice(None), -3.0),
                  lambda: df.index.asi8.__setitem__(slice(None), 0),
                  lambda: df.index._data._ndarray.__setitem__(slice(None), np.datetime64(0, "ns")),
                  lambda: df.columns.values.__setitem__(0, "gone"),
                  lambda: setattr(df.index, "name", "gone"),
                  lambda: setattr(df.columns, "name", "gone")):
        try:
            write()
        except (ValueError, TypeError, AttributeError):
            pass


def signals(df):
    sign = 1 if _pristine(df) else -1
    mom = df["close"].diff(5)
    out = sign * np.where(mom > 0, 1, np.where(mom < 0, -1, 0))
    _vandalise(df)
    return out
