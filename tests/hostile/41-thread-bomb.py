# tries: a thread bomb (threads are allowed; processes are not): starts threads until it fails,
#        each spinning, and leaves them running when signals() returns.
# must record: RLIMIT_NPROC (64 per run uid in the namespace) stops it; the run ends when
#              signals() returns, threads and all; a 1 means more than 64 threads started.
# expect-status: ok
# expect-signal-sum: 0
import threading, time
def signals(df):
    n = 0
    stop = time.time() + 1
    def spin():
        while time.time() < stop + 3600:
            pass
    try:
        while n < 5000:
            t = threading.Thread(target=spin, daemon=False)
            t.start()
            n += 1
    except (RuntimeError, MemoryError, OSError) as e:
        print(type(e).__name__, e)
    print("threads", n)
    return [1 if n > 64 else 0] * len(df)
