# tries: signals other processes: its parent, pid 1, and every pid up to 400.
# must record: refused (os.kill); Landlock's signal scope stops it even without the hook.
# expect-status: ok
# expect-action: os.kill
import os, signal
def signals(df):
    for pid in [os.getppid(), 1] + list(range(2, 400)):
        try:
            os.kill(pid, signal.SIGKILL)
        except Exception:
            pass
    return [0] * len(df)
