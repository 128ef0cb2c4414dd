"""The best of 50 variants: EMA 20/80 direction, entered only on Wednesdays and Saturdays at
19:00 UTC, held exactly 36 bars. Every rule here was picked because it looked best in a search,
and VARIANTS lists that whole search: five EMA pairs, two weekday filters, five entry hours with
their holding lengths, 50 parameter sets, the audited defaults among them."""
import numpy as np

# Every parameter set tried, written out as data: signals(df, **params) for each.
VARIANTS = [
    {"fast": 10, "slow": 40, "days": [2, 5], "hour": 19, "hold": 36},
    {"fast": 10, "slow": 40, "days": [2, 5], "hour": 7, "hold": 24},
    {"fast": 10, "slow": 40, "days": [2, 5], "hour": 13, "hold": 12},
    {"fast": 10, "slow": 40, "days": [2, 5], "hour": 1, "hold": 48},
    {"fast": 10, "slow": 40, "days": [2, 5], "hour": 19, "hold": 18},
    {"fast": 10, "slow": 40, "days": [0, 3], "hour": 19, "hold": 36},
    {"fast": 10, "slow": 40, "days": [0, 3], "hour": 7, "hold": 24},
    {"fast": 10, "slow": 40, "days": [0, 3], "hour": 13, "hold": 12},
    {"fast": 10, "slow": 40, "days": [0, 3], "hour": 1, "hold": 48},
    {"fast": 10, "slow": 40, "days": [0, 3], "hour": 19, "hold": 18},
    {"fast": 20, "slow": 80, "days": [2, 5], "hour": 19, "hold": 36},
    {"fast": 20, "slow": 80, "days": [2, 5], "hour": 7, "hold": 24},
    {"fast": 20, "slow": 80, "days": [2, 5], "hour": 13, "hold": 12},
    {"fast": 20, "slow": 80, "days": [2, 5], "hour": 1, "hold": 48},
    {"fast": 20, "slow": 80, "days": [2, 5], "hour": 19, "hold": 18},
    {"fast": 20, "slow": 80, "days": [0, 3], "hour": 19, "hold": 36},
    {"fast": 20, "slow": 80, "days": [0, 3], "hour": 7, "hold": 24},
    {"fast": 20, "slow": 80, "days": [0, 3], "hour": 13, "hold": 12},
    {"fast": 20, "slow": 80, "days": [0, 3], "hour": 1, "hold": 48},
    {"fast": 20, "slow": 80, "days": [0, 3], "hour": 19, "hold": 18},
    {"fast": 30, "slow": 120, "days": [2, 5], "hour": 19, "hold": 36},
    {"fast": 30, "slow": 120, "days": [2, 5], "hour": 7, "hold": 24},
    {"fast": 30, "slow": 120, "days": [2, 5], "hour": 13, "hold": 12},
    {"fast": 30, "slow": 120, "days": [2, 5], "hour": 1, "hold": 48},
    {"fast": 30, "slow": 120, "days": [2, 5], "hour": 19, "hold": 18},
    {"fast": 30, "slow": 120, "days": [0, 3], "hour": 19, "hold": 36},
    {"fast": 30, "slow": 120, "days": [0, 3], "hour": 7, "hold": 24},
    {"fast": 30, "slow": 120, "days": [0, 3], "hour": 13, "hold": 12},
    {"fast": 30, "slow": 120, "days": [0, 3], "hour": 1, "hold": 48},
    {"fast": 30, "slow": 120, "days": [0, 3], "hour": 19, "hold": 18},
    {"fast": 12, "slow": 96, "days": [2, 5], "hour": 19, "hold": 36},
    {"fast": 12, "slow": 96, "days": [2, 5], "hour": 7, "hold": 24},
    {"fast": 12, "slow": 96, "days": [2, 5], "hour": 13, "hold": 12},
    {"fast": 12, "slow": 96, "days": [2, 5], "hour": 1, "hold": 48},
    {"fast": 12, "slow": 96, "days": [2, 5], "hour": 19, "hold": 18},
    {"fast": 12, "slow": 96, "days": [0, 3], "hour": 19, "hold": 36},
    {"fast": 12, "slow": 96, "days": [0, 3], "hour": 7, "hold": 24},
    {"fast": 12, "slow": 96, "days": [0, 3], "hour": 13, "hold": 12},
    {"fast": 12, "slow": 96, "days": [0, 3], "hour": 1, "hold": 48},
    {"fast": 12, "slow": 96, "days": [0, 3], "hour": 19, "hold": 18},
    {"fast": 50, "slow": 200, "days": [2, 5], "hour": 19, "hold": 36},
    {"fast": 50, "slow": 200, "days": [2, 5], "hour": 7, "hold": 24},
    {"fast": 50, "slow": 200, "days": [2, 5], "hour": 13, "hold": 12},
    {"fast": 50, "slow": 200, "days": [2, 5], "hour": 1, "hold": 48},
    {"fast": 50, "slow": 200, "days": [2, 5], "hour": 19, "hold": 18},
    {"fast": 50, "slow": 200, "days": [0, 3], "hour": 19, "hold": 36},
    {"fast": 50, "slow": 200, "days": [0, 3], "hour": 7, "hold": 24},
    {"fast": 50, "slow": 200, "days": [0, 3], "hour": 13, "hold": 12},
    {"fast": 50, "slow": 200, "days": [0, 3], "hour": 1, "hold": 48},
    {"fast": 50, "slow": 200, "days": [0, 3], "hour": 19, "hold": 18},
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
