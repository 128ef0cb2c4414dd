# Expected: leak (flagged as not repeatable). Random signals from an unseeded generator differ
# from run to run, even at the last bar where nothing is hidden; the explanation says the
# signals are not repeatable rather than blaming the future.
import numpy as np
import pandas as pd


def signals(df):
    rng = np.random.default_rng()
    return rng.integers(-1, 2, len(df))
