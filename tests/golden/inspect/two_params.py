import pandas as pd


def signals(df, threshold):
    return (df["close"].pct_change() > threshold).astype(int)
