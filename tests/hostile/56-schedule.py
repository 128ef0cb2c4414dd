# tries: to change how it is scheduled: pin itself to one CPU, lower its nice value, ask for a
#        real-time class (SCHED_FIFO starves the host), and the same for its I/O.
# must record: each refused by the kernel filter with the schedule rule (a 1 means one passed).
# expect-status: ok
# expect-event: seccomp.sched_setaffinity | the schedule is fixed
# expect-event: seccomp.setpriority | the schedule is fixed
# expect-event: seccomp.sched_setscheduler | the schedule is fixed
# expect-event: seccomp.sched_setparam | the schedule is fixed
# expect-signal-sum: 0
import os
def signals(df):
    done = 0
    for f in (lambda: os.sched_setaffinity(0, {0}), lambda: os.setpriority(os.PRIO_PROCESS, 0, 5),
              lambda: os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1)),
              lambda: os.sched_setparam(0, os.sched_param(0))):
        try:
            f()
            done += 1
        except OSError:
            pass
    return [1 if done else 0] * len(df)
