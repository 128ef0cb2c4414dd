# tries: an object array of nested lists, bools and strings, one entry per bar, so the length
#        check passes and only the element type can catch it.
# must record: refused as bad output.
# expect-status: bad_output
import numpy as np
def signals(df):
    out = np.empty(len(df), dtype=object)
    for i in range(len(df)):
        out[i] = [1] if i % 3 == 0 else (True if i % 3 == 1 else "1")
    return out
