"""Picked from a search of 50 variants: EMA 20/80 direction, entered only on Wednesdays and
Saturdays at 19:00 UTC, held exactly 36 bars. Every rule here was chosen because it looked good
in that search, and VARIANTS lists the whole of it: two EMA pairs, five weekday filters, five
entry hours with their holding lengths, 50 parameter sets, the audited defaults among them."""
import numpy as np

# Every parameter set tried, written out as data: signals(df, **params) for each.
VARIANTS = [
    {"fast": 20, "slow": 80, "days": [2, 5], "hour": 19, "hold": 36},
    {"fast": 20, "slow": 80, "days": [2, 5], "hour": 7, "hold": 30},
    {"fast": 20, "slow": 80, "days": [2, 5], "hour": 13, "hold": 42},
    {"fast": 20, "slow": 80, "days": [2, 5], "hour": 1, "hold": 36},
    {"fast": 20, "slow": 80, "days": [2, 5], "hour": 22, "hold": 30},
    {"fast": 20, "slow": 80, "days": [0, 3], "hour": 19, "hold": 36},
    {"fast": 20, "slow": 80, "days": [0, 3], "hour": 7, "hold": 30},
    {"fast": 20, "slow": 80, "days": [0, 3], "hour": 13, "hold": 42},
    {"fast": 20, "slow": 80, "days": [0, 3], "hour": 1, "hold": 36},
    {"fast": 20, "slow": 80, "days": [0, 3], "hour": 22, "hold": 30},
    {"fast": 20, "slow": 80, "days": [1, 4], "hour": 19, "hold": 36},
    {"fast": 20, "slow": 80, "days": [1, 4], "hour": 7, "hold": 30},
    {"fast": 20, "slow": 80, "days": [1, 4], "hour": 13, "hold": 42},
    {"fast": 20, "slow": 80, "days": [1, 4], "hour": 1, "hold": 36},
    {"fast": 20, "slow": 80, "days": [1, 4], "hour": 22, "hold": 30},
    {"fast": 20, "slow": 80, "days": [2, 6], "hour": 19, "hold": 36},
    {"fast": 20, "slow": 80, "days": [2, 6], "hour": 7, "hold": 30},
    {"fast": 20, "slow": 80, "days": [2, 6], "hour": 13, "hold": 42},
    {"fast": 20, "slow": 80, "days": [2, 6], "hour": 1, "hold": 36},
    {"fast": 20, "slow": 80, "days": [2, 6], "hour": 22, "hold": 30},
    {"fast": 20, "slow": 80, "days": [3, 5], "hour": 19, "hold": 36},
    {"fast": 20, "slow": 80, "days": [3, 5], "hour": 7, "hold": 30},
    {"fast": 20, "slow": 80, "days": [3, 5], "hour": 13, "hold": 42},
    {"fast": 20, "slow": 80, "days": [3, 5], "hour": 1, "hold": 36},
    {"fast": 20, "slow": 80, "days": [3, 5], "hour": 22, "hold": 30},
    {"fast": 15, "slow": 60, "days": [2, 5], "hour": 19, "hold": 36},
    {"fast": 15, "slow": 60, "days": [2, 5], "hour": 7, "hold": 30},
    {"fast": 15, "slow": 60, "days": [2, 5], "hour": 13, "hold": 42},
    {"fast": 15, "slow": 60, "days": [2, 5], "hour": 1, "hold": 36},
    {"fast": 15, "slow": 60, "days": [2, 5], "hour": 22, "hold": 30},
    {"fast": 15, "slow": 60, "days": [0, 3], "hour": 19, "hold": 36},
    {"fast": 15, "slow": 60, "days": [0, 3], "hour": 7, "hold": 30},
    {"fast": 15, "slow": 60, "days": [0, 3], "hour": 13, "hold": 42},
    {"fast": 15, "slow": 60, "days": [0, 3], "hour": 1, "hold": 36},
    {"fast": 15, "slow": 60, "days": [0, 3], "hour": 22, "hold": 30},
    {"fast": 15, "slow": 60, "days": [1, 4], "hour": 19, "hold": 36},
    {"fast": 15, "slow": 60, "days": [1, 4], "hour": 7, "hold": 30},
    {"fast": 15, "slow": 60, "days": [1, 4], "hour": 13, "hold": 42},
    {"fast": 15, "slow": 60, "days": [1, 4], "hour": 1, "hold": 36},
    {"fast": 15, "slow": 60, "days": [1, 4], "hour": 22, "hold": 30},
    {"fast": 15, "slow": 60, "days": [2, 6], "hour": 19, "hold": 36},
    {"fast": 15, "slow": 60, "days": [2, 6], "hour": 7, "hold": 30},
    {"fast": 15, "slow": 60, "days": [2, 6], "hour": 13, "hold": 42},
    {"fast": 15, "slow": 60, "days": [2, 6], "hour": 1, "hold": 36},
    {"fast": 15, "slow": 60, "days": [2, 6], "hour": 22, "hold": 30},
    {"fast": 15, "slow": 60, "days": [3, 5], "hour": 19, "hold": 36},
    {"fast": 15, "slow": 60, "days": [3, 5], "hour": 7, "hold": 30},
    {"fast": 15, "slow": 60, "days": [3, 5], "hour": 13, "hold": 42},
    {"fast": 15, "slow": 60, "days": [3, 5], "hour": 1, "hold": 36},
    {"fast": 15, "slow": 60, "days": [3, 5], "hour": 22, "hold": 30},
]


def signals(df, *, fast=20, slow=80, days=(2, 5), hour=19, hold=36):
    fast_ema = df["close"].ewm(span=fast, adjust=False).mean()
    slow_ema = df["close"].ewm(span=slow, adjust=False).mean()
    direction = np.where(fast_ema > slow_ema, 1, -1)
    is_entry = df.index.dayofweek.isin(list(days)) & (df.index.hour == hour)
    out = np.zeros(len(df), dtype=int)
    for i in np.flatnonzero(is_entry):
        # Decided at this bar's close from past bars only; the hold length is the curve fit.
        out[i:i + hold] = direction[i]
    return out
