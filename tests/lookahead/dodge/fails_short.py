# Expected: REJECTED_LOOKAHEAD. Trades from the first bar, anchored to a fixed later bar: every
# run shown fewer bars than that raises IndexError. Never compared, it would once have passed; a
# run that fails where the full run had traded is a finding.
import numpy as np


def signals(df):
    c = df["close"].to_numpy()
    anchor = c[9000]
    return np.where(c < anchor, 1, -1)
