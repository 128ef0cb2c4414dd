# tries: ctypes (already imported by pandas) to call libc's system() and to poke memory.
# must record: native code refused (ctypes.dlopen).
# expect-status: ok
# expect-action: ctypes.dlopen
import ctypes
def signals(df):
    try:
        ctypes.CDLL(None).system(b"touch /var/tmp/strataudit-hostile-04")
    except Exception:
        pass
    return [0] * len(df)
