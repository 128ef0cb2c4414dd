# tries: calls the audit hook does not watch (os.listdir, os.stat on the project, reading a
#        directory of secrets) and encodes any success into the signals.
# must record: nothing in the hook; Landlock refuses the listings, so every signal is 0.
# expect-status: ok
# expect-signal-sum: 0
import os
def signals(df):
    seen = 0
    for d in ("/work", "/root", "/etc", "/home", "/var/tmp"):
        try:
            seen += len(os.listdir(d))
        except Exception:
            pass
    return [1 if seen else 0] * len(df)
