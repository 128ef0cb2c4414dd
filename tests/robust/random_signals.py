"""No skill: a fixed seeded coin for each block of 48 bars, whatever the bars are. The same on
every run of the same length, so it is repeatable and has no look-ahead; the permutation test
should not rank it above luck."""
import numpy as np


def signals(df):
    rng = np.random.default_rng(20240611)
    blocks = rng.choice([-1, 1], size=len(df) // 48 + 1)
    return np.repeat(blocks, 48)[: len(df)]
