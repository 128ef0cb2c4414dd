# tries: opens /proc/self/mem read-write to patch the interpreter (and the audit hook) in place.
# must record: the open refused (open, "writes stay in scratch"); Landlock also denies /proc.
# expect-status: ok
# expect-action: open
import os
def signals(df):
    try:
        fd = os.open("/proc/self/mem", os.O_RDWR)
        os.close(fd)
    except Exception:
        pass
    return [0] * len(df)
