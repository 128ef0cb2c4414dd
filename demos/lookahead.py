"""A peeker: trades on the next bar's close via shift(-1). It goes long before every hour that
will rise more than 0.2 % and short before every hour that will fall more than 0.2 %, which
no one can know at this bar's close."""
import numpy as np


def signals(df):
    next_close = df["close"].shift(-1)  # the future: this bar does not know it yet
    move = next_close / df["close"] - 1.0
    return np.where(move > 0.002, 1, np.where(move < -0.002, -1, 0))
