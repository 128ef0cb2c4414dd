# tries: silences or hijacks the events channel before misbehaving: closes descriptor 4, closes
#        a range over it, duplicates a scratch file onto it, and resets the handler that reports
#        refused system calls (SIGSYS), each of which the kernel filter used to refuse silently;
#        then blocks SIGSYS and tries a refused call.
# must record: each attempt on the channel and on the guarded signal by rule "the sandbox's own
#              plumbing is fixed"; the refused call with SIGSYS blocked ends the run, killed by
#              the kernel (the driver's record, which nothing in the run can silence).
# expect-status: crashed
# expect-event: seccomp.close | the sandbox's own plumbing is fixed
# expect-event: seccomp.close_range | the sandbox's own plumbing is fixed
# expect-event: seccomp.dup2 | the sandbox's own plumbing is fixed
# expect-event: seccomp.rt_sigaction | the sandbox's own plumbing is fixed
# expect-event: seccomp | no kernel attack surface
import os
import signal
def signals(df):
    null = os.open("/tmp/x", os.O_WRONLY | os.O_CREAT)
    for attempt in (lambda: os.close(4), lambda: os.closerange(3, 6), lambda: os.dup2(null, 4),
                    lambda: signal.signal(signal.SIGSYS, signal.SIG_IGN)):
        try:
            attempt()
        except (OSError, ValueError):
            pass
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGSYS})
    try:
        os.sched_setaffinity(0, {0})
    except OSError:
        pass
    return [0] * len(df)
