# Expected: clean. A loop over bars carrying state (entry price, trailing stop) forward only.
def signals(df):
    close = df["close"].tolist()
    high = df["high"].tolist()
    out, pos, stop, peak = [], 0, 0.0, 0.0
    for t, c in enumerate(close):
        if pos == 0 and t >= 24 and c > max(high[t - 24:t]):
            pos, peak = 1, c
            stop = c * 0.97
        elif pos == 1:
            peak = max(peak, c)
            stop = max(stop, peak * 0.97)
            if c < stop:
                pos = 0
        out.append(pos)
    return out
