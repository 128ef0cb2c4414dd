# tries: the metadata calls CPython raises no audit event for and Landlock does not mediate:
#        whether a name exists and for whom (os.access of /etc/shadow, and of /etc, which the
#        run's root has), the host's disk size (os.statvfs, shutil.disk_usage), name limits
#        (os.pathconf), where a link points (os.readlink of /etc/localtime, the host's time
#        zone, and of /lib, a link the run's root has outside the read roots). The same
#        through the posix module, under os's guards.
# must record: each refused with its rule: os.access and os.readlink of a name that is there
#              outside the read roots by the hook (a link is judged where it sits, not where it
#              points); statfs, and access under the hook, by the kernel filter (nothing of the
#              host to learn); names the run's root does not have are simply not there; the run
#              goes on and learns nothing.
# expect-status: ok
# expect-event: os.access | reads stay in the interpreter's files
# expect-event: seccomp.access | nothing of the host to learn
# expect-event: seccomp.statfs | nothing of the host to learn
# expect-event: os.readlink | reads stay in the interpreter's files
# expect-detail: /lib
# expect-signal-sum: 0
import os
import posix
import shutil
def signals(df):
    learned = []
    for probe in (lambda: os.access("/etc/shadow", os.F_OK), lambda: os.access("/etc", os.R_OK),
                  lambda: os.statvfs("/").f_blocks,
                  lambda: shutil.disk_usage("/").total, lambda: os.pathconf("/", "PC_NAME_MAX"),
                  lambda: os.readlink("/etc/localtime"), lambda: os.readlink("/lib"),
                  lambda: posix.access("/etc/shadow", os.F_OK)):
        try:
            learned += [x for x in [probe()] if x]
        except OSError:
            pass
    return [0] * len(df) if not learned else [1] * len(df)
