# tries: returns a pandas Series of the right length whose index is not df.index (reversed,
#        shifted a year), so the values only line up with the bars by position; pandas itself
#        would align on the index (and find no bar in common).
# must record: refused as bad output: a Series must carry df.index.
# expect-status: bad_output
import numpy as np, pandas as pd
def signals(df):
    s = pd.Series(np.where(df["close"] > df["open"], 1, -1), index=df.index + pd.Timedelta(days=365))
    return s.iloc[::-1]
