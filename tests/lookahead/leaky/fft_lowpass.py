# Expected: leak. A low-pass filter done with np.fft over the whole series: every smoothed
# value mixes in the future.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"].to_numpy()
    f = np.fft.rfft(c - c.mean())
    f[20:] = 0
    s = np.fft.irfft(f, len(c)) + c.mean()
    return np.where(c > s, -1, 1)
