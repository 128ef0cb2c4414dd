"""Three parameter sets tried, declared as data."""
import numpy as np

VARIANTS = [
    {"span": 12, "band": 0.002},
    {"span": 24, "band": 0.0, "side": "long"},
    {"span": 48, "band": 0.001, "hours": [1, 13]},
]


def signals(df, *, span=12, band=0.002, side="both", hours=None):
    ema = df["close"].ewm(span=span, adjust=False).mean()
    gap = df["close"] / ema - 1.0
    out = np.where(gap > band, 1, np.where(gap < -band, -1, 0))
    if side == "long":
        out = np.maximum(out, 0)
    return out
