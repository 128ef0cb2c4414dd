# tries: _posixsubprocess.fork_exec directly, skipping subprocess.Popen and its audit event.
# must record: the import refused by the audit hook's blocklist (pandas' copy is dropped from
#              sys.modules first), so fork_exec is never reached.
# expect-status: ok
# expect-event: import | no process spawning
# expect-signal-sum: 0
import os
def signals(df):
    try:
        import _posixsubprocess
    except PermissionError:
        return [0] * len(df)
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
    return [1] * len(df)
