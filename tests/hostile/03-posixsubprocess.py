# tries: _posixsubprocess.fork_exec directly, skipping subprocess.Popen and its audit event.
# must record: the kernel filter refusing the process-creating clone (seccomp.clone).
# expect-status: ok
# expect-action: seccomp.clone
import _posixsubprocess, os
def signals(df):
    args = [b"/bin/sh", [b"/bin/sh"], True, (), None, None, -1, -1, -1, -1, -1, -1,
            *os.pipe(), False, False, -1, None, None, None, -1, None]
    for extra in ([False], []):
        try:
            _posixsubprocess.fork_exec([b"/bin/sh", b"-c", b"touch /var/tmp/strataudit-hostile-03"], *args[1:], *extra)
            break
        except TypeError:
            continue
        except OSError:
            break
    return [0] * len(df)
