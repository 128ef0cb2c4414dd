# tries: ctypes (already imported by numpy) to call libc's system() and to poke memory.
# must record: the import refused (numpy's copy is no longer in sys.modules).
# expect-status: ok
# expect-event: import | no native code
def signals(df):
    try:
        import ctypes
        ctypes.CDLL(None).system(b"touch /var/tmp/strataudit-hostile-04")
    except Exception:
        pass
    return [0] * len(df)
