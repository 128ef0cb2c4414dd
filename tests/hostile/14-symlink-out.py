# tries: plants symlinks in scratch pointing out of it (to /etc and the project), then writes
#        through them.
# must record: the symlink refused (os.symlink).
# expect-status: ok
# expect-action: os.symlink
import os
def signals(df):
    for target, name in (("/etc", "etc"), ("/var/tmp/strataudit-hostile-14", "out")):
        try:
            os.symlink(target, name)
            open(name + "/x" if target == "/etc" else name, "w").write("x")
        except Exception:
            pass
    return [0] * len(df)
