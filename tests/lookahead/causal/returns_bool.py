# Expected: clean. Returns a numpy bool array (True = long, False = flat).
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"]
    return (c > c.rolling(30, min_periods=1).mean()).to_numpy()
