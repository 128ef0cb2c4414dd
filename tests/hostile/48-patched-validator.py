# tries: monkeypatches numpy in its own process (np.isin, np.asarray, ndarray.astype through a
#        subclass) so the in-sandbox conversion waves through values of 2 and 127.
# must record: the driver, which never runs Python, rejects the bytes (status bad_output).
# expect-status: bad_output
import numpy as np
class Liar(np.ndarray):
    def astype(self, *a, **k):
        return np.ndarray.astype(np.asarray(self), *a, **k)
def signals(df):
    real_isin = np.isin
    np.isin = lambda a, b, *x, **k: np.ones(np.shape(a), dtype=bool)
    out = np.full(len(df), 2.0).view(Liar)
    out[::7] = 127
    return out
