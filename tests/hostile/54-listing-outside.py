# tries: to look around the host: lists /, /etc and /root, scans /etc, stats /etc/passwd, a
#        licence file and /proc, and opens /etc/hostname for reading. Landlock refuses the
#        listings and opens but says nothing, so without the hook this reads as a strategy that
#        crashed. The run's own root has no /root, /etc/passwd or licence (nothing to find, so
#        nothing the hook need judge); /proc it has, outside the read roots.
# must record: each attempt, with the read rule; nothing learnt (a 1 means a name came back).
# expect-status: ok
# expect-event: os.listdir | reads stay in the interpreter's files
# expect-event: os.scandir | reads stay in the interpreter's files
# expect-event: os.stat | reads stay in the interpreter's files
# expect-event: open | reads stay in the interpreter's files
# expect-signal-sum: 0
import os
def signals(df):
    seen = 0
    for f in (lambda: os.listdir("/"), lambda: os.listdir("/etc"), lambda: os.listdir("/root"),
              lambda: list(os.scandir("/etc")), lambda: [os.stat("/etc/passwd")], lambda: [os.stat("/proc")],
              lambda: [os.path.getsize("/usr/share/common-licenses/GPL-3")],
              lambda: [open("/etc/hostname").read()]):
        try:
            seen += len(f())
        except OSError:
            pass
    return [1 if seen else 0] * len(df)
