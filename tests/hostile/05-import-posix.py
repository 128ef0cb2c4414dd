# tries: import posix (the module under os) and call system() and fork() on it directly.
# must record: both refused (os.system, os.fork).
# expect-status: ok
# expect-action: os.system
# expect-action: os.fork
import posix
def signals(df):
    for fn in (lambda: posix.system("touch /var/tmp/strataudit-hostile-05"), posix.fork):
        try:
            fn()
        except Exception:
            pass
    return [0] * len(df)
