# tries: leaves state for the next run of the same zygote (the look-ahead stage's truncated runs
#        follow one another): a file in scratch, an attribute on numpy, a variable in os.environ,
#        a module in sys.modules; the next run looks for each.
# must record: every run starts clean (run three times from one zygote; a 1 means the last run
#              found something a previous one left).
# repeat: 3
# expect-status: ok
# expect-signal-sum: 0
import os, sys, numpy as np
def signals(df):
    found = os.path.exists("strataudit-leak") or hasattr(np, "_strataudit_leak") \
        or "STRATAUDIT_LEAK" in os.environ or "strataudit_leak" in sys.modules
    open("strataudit-leak", "w").write("x")
    np._strataudit_leak = 1
    os.environ["STRATAUDIT_LEAK"] = "1"
    sys.modules["strataudit_leak"] = np
    return [1 if found else 0] * len(df)
