# tries: reaches around the audit hook, then signals every process it can name with raw calls:
#        kill(-1, SIGKILL), kill(0, SIGTERM), a pidfd for the zygote from an O_PATH open of
#        /proc/1, tgkill on the zygote, F_SETOWN + O_ASYNC to aim SIGIO at other process groups
#        (on a scratch file).
# must record: nothing reaches outside the run's own PID namespace (the zygote and driver live,
#              the run completes); every signal 0 (a 1 means a kill reported success).
# expect-status: ok
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
import os
def signals(df):
    ctypes, c = libc()
    hit = 0
    hit += c.syscall(62, -1, 9) == 0                     # kill(-1, SIGKILL)
    p = c.syscall(2, b"/proc/1", 0o10000000)             # O_PATH /proc/1 (the zygote's proc)
    if p >= 0:
        hit += c.syscall(424, p, 9, None, 0) == 0        # pidfd_send_signal
    for pid in (2, 3, 100):
        hit += c.syscall(62, pid, 9) == 0                # kill(pid, SIGKILL): other runs, zygote
        hit += c.syscall(234, pid, pid, 9) == 0          # tgkill
    # a scratch file's descriptor (pipes are refused: their inode numbers count the host's)
    r = w = os.open("sigio", os.O_RDWR | os.O_CREAT, 0o600)
    for owner in (-1, -2, 2):                            # SIGIO at other process groups
        c.syscall(72, r, 8, owner)                       # fcntl F_SETOWN (names only the run's
        c.syscall(72, r, 4, 0o20000 | 0o4000)            # own namespace); F_SETFL O_ASYNC
        os.write(w, b"x")
    return [1 if hit else 0] * len(df)
