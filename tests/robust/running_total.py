"""Never converges: long while the close is above its mean since bar 0. Started later in history,
the mean is of different bars, so the signals on the tail differ."""
import numpy as np


def signals(df):
    close = df["close"].to_numpy()
    since_start = np.cumsum(close) / np.arange(1, len(close) + 1)
    return np.where(close > since_start, 1, -1)
