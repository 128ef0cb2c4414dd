# tries: queues real-time signals to itself (blocked, so they stay pending) until the kernel says
#        no. Pending signals are charged up the user-namespace chain to the uid that created the
#        sandbox's namespace (root on the host): with RLIMIT_SIGPENDING inherited from the host,
#        one run fills root's whole quota, and while it lives every root process on the host
#        gets EAGAIN from sigqueue() and timer_create(). Pure Python, no audit event.
# must record: the run can queue only a handful (RLIMIT_SIGPENDING set low in the run); every
#              signal stays 0 (a 1 means more than 1024 signals were queued).
# expect-status: ok
# expect-signal-sum: 0
import signal
def signals(df):
    rt = list(range(signal.SIGRTMIN, signal.SIGRTMAX + 1))
    signal.pthread_sigmask(signal.SIG_BLOCK, rt)
    n = 0
    try:
        while n < 200000:
            signal.raise_signal(rt[n % len(rt)])
            n += 1
    except OSError:
        pass
    print("queued", n)
    return [1 if n > 1024 else 0] * len(df)
