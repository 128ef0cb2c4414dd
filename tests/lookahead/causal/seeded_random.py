# Expected: clean. Random signals from a generator seeded with a constant: the draws for the
# first t+1 bars are the same however many bars follow, so hiding the future changes nothing.
import numpy as np
import pandas as pd


def signals(df):
    rng = np.random.default_rng(7)
    return rng.integers(-1, 2, len(df))
