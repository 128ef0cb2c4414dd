"""The best of 50 variants: EMA 20/80 direction, entered only on Wednesdays and Saturdays at
19:00 UTC, held exactly 36 bars. Every rule here was picked because it looked best in a search."""
import numpy as np

HOLD_BARS = 36
ENTRY_DAYS = (2, 5)  # Wednesday, Saturday
ENTRY_HOUR = 19


def signals(df):
    fast = df["close"].ewm(span=20, adjust=False).mean()
    slow = df["close"].ewm(span=80, adjust=False).mean()
    direction = np.where(fast > slow, 1, -1)
    is_entry = df.index.dayofweek.isin(ENTRY_DAYS) & (df.index.hour == ENTRY_HOUR)
    out = np.zeros(len(df), dtype=int)
    for i in np.flatnonzero(is_entry):
        # Decided at this bar's close from past bars only; the hold length is the curve fit.
        out[i:i + HOLD_BARS] = direction[i]
    return out
