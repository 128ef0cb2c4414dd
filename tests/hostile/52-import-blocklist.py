# tries: the modules that open native code, raw memory or processes: ctypes and _ctypes, cffi,
#        mmap, multiprocessing, _posixsubprocess, pty; ctypes and mmap were loaded by numpy and
#        pandas before lockdown, so it also looks in sys.modules for the cached copies.
# must record: each import refused with its rule; no cached copy is left to take; pandas still
#              computes (the signal is 1 on every bar only if the rolling mean works).
# expect-status: ok
# expect-event: import | no native code
# expect-event: import | no raw memory mappings
# expect-event: import | no process spawning
# expect-signal-sum: 300
import sys
def signals(df):
    got = [m for m in ("ctypes", "_ctypes", "mmap", "_posixsubprocess", "multiprocessing") if m in sys.modules]
    for m in ("ctypes", "_ctypes", "cffi", "mmap", "multiprocessing", "_posixsubprocess", "pty", "multiprocessing.pool"):
        try:
            __import__(m)
            got.append(m)
        except PermissionError:
            pass
    ok = not got and df["close"].rolling(3).mean().notna().sum() == len(df) - 2
    return [1 if ok else 0] * len(df)
