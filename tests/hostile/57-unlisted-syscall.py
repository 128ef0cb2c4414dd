# tries: system calls no strategy needs and the old denylist did not name: sync (flushes the
#        host's disks; os.sync reports no error, so only the event shows it), an interval timer
#        and a chown in scratch (the audit hook lets it through: it stays in scratch).
# must record: each refused by the kernel filter as not on the allowlist (a 1 means the timer or
#              the chown passed).
# expect-status: ok
# expect-event: seccomp.sync | deny by default: not a call signals() needs
# expect-event: seccomp.setitimer | deny by default: not a call signals() needs
# expect-event: seccomp.chown | deny by default: not a call signals() needs
# expect-signal-sum: 0
import os, signal
def signals(df):
    done = 0
    os.sync()
    open("mine", "w").close()
    for f in (lambda: signal.setitimer(signal.ITIMER_REAL, 100.0), lambda: os.chown("mine", 0, 0)):
        try:
            f()
            done += 1
        except OSError:
            pass
    return [1 if done else 0] * len(df)
