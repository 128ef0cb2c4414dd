# tries: utimensat(2) on host paths it can neither read nor write: world-writable ones (/var/tmp,
#        /dev/shm, /run/lock, /dev/null, and /var/tmp/strataudit-mtime, a 0666 file the test
#        leaves with an old date). Landlock does not cover timestamps, so this changes host
#        metadata and gives runs a channel to one another (a later run stat()s the times a
#        full-history run set, e.g. to smuggle the future past the look-ahead check). Reaches
#        around the audit hook first (numpy raw memory; os.utime itself is refused by the hook).
# must record: utimensat refused by the kernel filter (seccomp.utimensat); the host's
#              timestamps unchanged; every signal stays 0 (a 1 means a timestamp was set).
# expect-status: ok
# expect-action: seccomp.utimensat
# expect-signal-sum: 0
# --- reach-around: unhook the C audit hook with numpy raw memory, then ctypes is free ---------
import struct, numpy as _np
def _mem(addr, n=1, t='<u8'):
    class _I: pass
    o = _I(); o.__array_interface__ = {'shape': (n,), 'typestr': t, 'data': (addr, False), 'version': 3}
    return _np.asarray(o)
def _dynsyms(path, want):
    b = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', b, 0x28); shentsize, shnum = struct.unpack_from('<HH', b, 0x3a)
    secs = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize) for i in range(shnum)]
    out = {}
    for s in secs:
        if s[1] != 11:  # SHT_DYNSYM
            continue
        strtab = secs[s[6]]
        for off in range(s[4], s[4] + s[5], 24):
            name_i, info, other, shndx, value, size = struct.unpack_from('<IBBHQQ', b, off)
            end = b.index(b'\0', strtab[4] + name_i)
            nm = b[strtab[4] + name_i:end].decode()
            if nm in want:
                out[nm] = value
    return out
def unhook():
    s = _dynsyms('/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0', {'_PyRuntime', 'PyLong_Type'})
    base = id(int) - s['PyLong_Type']
    _mem(base + s['_PyRuntime'] + 656)[0] = 0   # _PyRuntime.audit_hook_head = NULL (3.11)
def libc():
    unhook()
    import ctypes
    c = ctypes.CDLL(None, use_errno=True)
    c.syscall.restype = ctypes.c_long
    return ctypes, c
# ----------------------------------------------------------------------------------------------
def signals(df):
    ctypes, c = libc()
    done = 0
    for p in (b"/var/tmp/strataudit-mtime", b"/var/tmp", b"/dev/shm", b"/run/lock", b"/dev/null"):
        if c.syscall(280, -100, p, None, 0) == 0:  # utimensat(AT_FDCWD, p, NULL, 0)
            done += 1
        if c.syscall(235, p, None) == 0:  # utimes(p, NULL)
            done += 1
    print("timestamps set", done)
    return [1 if done else 0] * len(df)
