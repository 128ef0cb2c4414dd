# tries: a fifo and a device node in scratch (a fifo is a rendezvous a later reader could use;
#        a node would be a device), then the same outside it.
# must record: each refused by the kernel filter with the special-files rule (a 1 means one was
#              made).
# expect-status: ok
# expect-event: seccomp.mknodat | no special files
# expect-signal-sum: 0
import os, stat
def signals(df):
    made = 0
    for f in (lambda: os.mkfifo("fifo"), lambda: os.mknod("node", stat.S_IFCHR | 0o600, os.makedev(1, 3)),
              lambda: os.mkfifo("/var/tmp/strataudit-hostile-55")):
        try:
            f()
            made += 1
        except OSError:
            pass
    return [1 if made else 0] * len(df)
