# Expected: clean. Holds the frame's index to its contract in every run, the truncated ones
# too (their index is a view of the data zygote's pages, not a copy): a UTC DatetimeIndex
# named time, increasing, starting at the first bar; then trades the hour of day.
import numpy as np
import pandas as pd


def signals(df):
    idx = df.index
    assert isinstance(idx, pd.DatetimeIndex) and idx.name == "time"
    assert str(idx.dtype) == "datetime64[ns, UTC]" and idx.is_monotonic_increasing
    assert idx[0] == pd.Timestamp("2024-01-01T00:00:00Z") and len(idx) == len(df)
    assert (idx.asi8[1:] > idx.asi8[:-1]).all()
    return np.where(idx.hour < 12, 1, -1)
