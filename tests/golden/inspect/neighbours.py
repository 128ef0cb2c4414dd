"""Numeric keyword defaults of every kind the neighbourhood moves or leaves: a 1 whose lower
neighbours would reach zero, a 2 that rounds onto itself, a zero, a negative, a float, a bool
and a string (neither moved), and an hour."""
import numpy as np


def signals(df, *, a=1, b=2, c=0, d=-5, e=0.5, f=True, g=19, h="x"):
    return np.zeros(len(df), dtype=int)
