# tries: adds its own audit hook (to see or swallow events) and clears hooks via sys internals.
# must record: the new hook refused (sys.addaudithook); later refusals still recorded.
# expect-status: ok
# expect-action: sys.addaudithook
# expect-action: os.system
import os, sys
def signals(df):
    try:
        sys.addaudithook(lambda ev, args: None)
    except Exception:
        pass
    try:
        os.system("touch /var/tmp/strataudit-hostile-19")
    except Exception:
        pass
    return [0] * len(df)
