# Expected: clean, with no window confirmed. For bars whose values follow from their time (bar i
# at 2024-01-01 + i hours opens at 100 + i/64, as 40-lookahead.sh writes them): raises unless
# every bar it is given holds exactly its own values, and signals (i // 17) % 2 from each bar's
# time alone. A window given the wrong bars, or shifted by one, would fail or disagree.
import numpy as np
import pandas as pd


def signals(df):
    i = (df.index - pd.Timestamp("2024-01-01", tz="UTC")) // pd.Timedelta(hours=1)
    i = np.asarray(i, dtype=np.int64)
    o = 100 + i / 64
    if len(i) > 1 and not np.all(np.diff(i) == 1):
        raise ValueError("bars are not consecutive")
    if not (np.array_equal(df["open"].to_numpy(), o) and np.array_equal(df["close"].to_numpy(), o + 1 / 256)
            and np.array_equal(df["volume"].to_numpy(), 1000.0 + i)):
        raise ValueError("a bar does not hold its own values")
    return (i // 17) % 2
