"""No skill: a fixed seeded coin per bar, whatever the bars are. The same on every run of the
same length, so it is repeatable and has no look-ahead; the permutation test should not rank it
above luck."""
import numpy as np


def signals(df):
    rng = np.random.default_rng(20240611)
    return rng.choice([-1, 0, 1], size=len(df))
