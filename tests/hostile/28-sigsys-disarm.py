# tries: disarms the SIGSYS handler (that reports refused syscalls) and then forks natively.
# must record: the handler change refused by the kernel filter; the fork refused (seccomp.clone).
# expect-status: ok
# expect-action: seccomp.clone
import _posixsubprocess, os, signal
def signals(df):
    try:
        signal.signal(signal.SIGSYS, signal.SIG_IGN)
    except Exception:
        pass
    args = [[b"/bin/true"], [b"/bin/true"], True, (), None, None, -1, -1, -1, -1, -1, -1,
            *os.pipe(), False, False, -1, None, None, None, -1, None]
    for extra in ([False], []):
        try:
            _posixsubprocess.fork_exec(*args, *extra)
            break
        except TypeError:
            continue
        except OSError:
            break
    return [0] * len(df)
