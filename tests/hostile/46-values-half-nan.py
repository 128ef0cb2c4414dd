# tries: values that round or cast into {-1, 0, 1}: 0.5, 1.5, -0.9, nan and inf (int8 casts
#        would turn them into 0, 1, 0, 0 and garbage).
# must record: refused as bad output, naming the first bad value.
# expect-status: bad_output
import numpy as np
def signals(df):
    out = np.zeros(len(df))
    out[-5:] = (0.5, 1.5, -0.9, np.nan, np.inf)
    return out
