# tries: kernel memory outside the address-space limit: as many pipes as descriptors allow,
#        each grown to 1 MB and filled, plus eventfds, epolls and timerfds to the descriptor cap.
# must record: pipes and eventfds refused by the kernel filter (nothing of the host to learn:
#              their inode numbers are a machine-wide counter); RLIMIT_NOFILE bounds the rest
#              (a 1 means more descriptors than the limit); the run completes and the host
#              keeps working.
# expect-event: seccomp.pipe2 | nothing of the host to learn
# expect-status: ok
# expect-signal-sum: 0
import os, select, fcntl
def signals(df):
    fds = []
    try:
        while True:
            r, w = os.pipe()
            fds += [r, w]
            try:
                fcntl.fcntl(w, 1031, 1 << 20)  # F_SETPIPE_SZ
            except OSError:
                pass
            os.set_blocking(w, False)
            try:
                while True:
                    os.write(w, b"x" * 65536)
            except OSError:
                pass
    except OSError:
        pass
    try:
        while True:
            fds.append(os.eventfd(0))
    except (OSError, AttributeError):
        pass
    try:
        while True:
            fds.append(select.epoll().detach())
    except OSError:
        pass
    print("descriptors", len(fds))
    return [1 if len(fds) > 64 else 0] * len(df)
