# tries: a fork bomb (os.fork in a loop).
# must record: every fork refused (os.fork); one process per run holds even without the hook.
# expect-status: ok
# expect-action: os.fork
import os
def signals(df):
    for _ in range(20):
        try:
            if os.fork() == 0:
                while True:
                    os.fork()
        except Exception:
            pass
    return [0] * len(df)
