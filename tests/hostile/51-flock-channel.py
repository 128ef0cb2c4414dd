# tries: takes exclusive flock() and fcntl() locks on files every run may read (the stdlib, the
#        loader cache): a channel between runs in flight at once, and a way to stall any host
#        process that locks the same files. Locks die with the run.
# must record: the run completes; the host can lock the same files afterwards (nothing held).
# expect-status: ok
import fcntl, os
def signals(df):
    held = []
    for p in ("/usr/lib/python3.11/os.py", "/etc/ld.so.cache"):
        try:
            fd = os.open(p, os.O_RDONLY)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            held.append(fd)
        except OSError:
            pass
    print("locks held", len(held))
    return [0] * len(df)
