# tries: reads the environment (os.environ and the C environ through os.getenv) and encodes
#        any variable it finds into the signals.
# must record: nothing to find: both environments are empty, so every signal is 0.
# expect-status: ok
# expect-signal-sum: 0
import os
def signals(df):
    out = [0] * len(df)
    text = "".join(k + "=" + v for k, v in os.environ.items())
    text += os.getenv("STRATAUDIT_SECRET", "") + os.getenv("HOME", "") + os.getenv("PATH", "")
    for i, ch in enumerate(text[: len(out)]):
        out[i] = 1
    return out
