# Expected: clean. Returns a plain Python list of ints: long when the close beats yesterday's.
def signals(df):
    c = df["close"].tolist()
    return [0 if t < 24 else (1 if c[t] > c[t - 24] else -1) for t in range(len(c))]
