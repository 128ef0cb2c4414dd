# tries: to leave state for the host or a later run outside scratch: POSIX shared memory
#        (multiprocessing.shared_memory, /dev/shm), a file in /dev/shm and /run/lock, a FIFO in
#        /var/tmp, a System V segment through numpy.
# must record: all refused (Landlock; the hook records the opens); nothing planted.
# expect-status: ok
# expect-signal-sum: 0
import os
def signals(df):
    made = 0
    try:
        from multiprocessing import shared_memory
        shared_memory.SharedMemory(name="strataudit-hostile-44", create=True, size=4096)
        made += 1
    except Exception:
        pass
    for p in ("/dev/shm/strataudit-hostile-44b", "/run/lock/strataudit-hostile-44"):
        try:
            fd = os.open(p, os.O_WRONLY | os.O_CREAT, 0o644)
            made += 1
        except OSError:
            pass
    try:
        os.mkfifo("/var/tmp/strataudit-hostile-44")
        made += 1
    except OSError:
        pass
    return [1 if made else 0] * len(df)
