# tries: reads /etc/passwd and smuggles its bytes out as signals (bit by bit).
# must record: the read refused (open, "reads stay in the interpreter's files"); every
#              signal stays 0 because nothing was read.
# expect-status: ok
# expect-action: open
# expect-signal-sum: 0
def signals(df):
    out = [0] * len(df)
    try:
        data = open("/etc/passwd", "rb").read()
        bits = [(b >> i) & 1 for b in data for i in range(8)]
        for i, bit in enumerate(bits[: len(out)]):
            out[i] = 1 if bit else -1
    except Exception:
        pass
    return out
