# tries: replaces the process with a shell (os.execv), a way out of the interpreter.
# must record: refused (os.exec).
# expect-status: ok
# expect-action: os.exec
import os
def signals(df):
    try:
        os.execv("/bin/sh", ["/bin/sh", "-c", "touch /var/tmp/strataudit-hostile-26"])
    except Exception:
        pass
    return [0] * len(df)
