"""Converging recursion: EMA 24 with adjust=False. Its weights on old bars decay, so started later
in history it soon gives the same signals as the full run."""
import numpy as np


def signals(df):
    ema = df["close"].ewm(span=24, adjust=False).mean()
    return np.where(df["close"] > ema, 1, -1)
