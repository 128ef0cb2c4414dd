# tries: the classic daemon: fork, setsid, fork again, and keep running after the run ends.
# must record: the fork refused (os.fork); no process survives the run.
# expect-status: ok
# expect-action: os.fork
import os, time
def signals(df):
    try:
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                while True:
                    time.sleep(1)
    except Exception:
        pass
    return [0] * len(df)
