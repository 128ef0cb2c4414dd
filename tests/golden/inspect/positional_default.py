import pandas as pd


def signals(df, window=48, cap=0.03):
    """A positional parameter with a default is not one the call signals(df) gives."""
    move = df["close"].pct_change(window)
    return (move.clip(-cap, cap) > 0).astype(int)
