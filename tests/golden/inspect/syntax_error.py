import numpy as np

def signals(df):
    x = "café" + 1 +
    return x
