# tries: disarms the SIGSYS handler (that reports refused syscalls) and then forks natively.
#        Reaches around the audit hook first, since the hook refuses importing _posixsubprocess.
# must record: the handler change refused by the kernel filter; the fork refused (seccomp.clone).
# expect-status: ok
# expect-event: seccomp.clone | no process spawning
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
import os, signal
def scratch_fds():
    # fork_exec's error pipe: two descriptors of a scratch file (pipes are refused: their
    # inode numbers count the host's)
    fd = os.open("errpipe", os.O_RDWR | os.O_CREAT, 0o600)
    return fd, os.dup(fd)
def signals(df):
    unhook()
    import _posixsubprocess
    try:
        signal.signal(signal.SIGSYS, signal.SIG_IGN)
    except Exception:
        pass
    args = [[b"/bin/true"], [b"/bin/true"], True, (), None, None, -1, -1, -1, -1, -1, -1,
            *scratch_fds(), False, False, -1, None, None, None, -1, None]
    for extra in ([False], []):
        try:
            _posixsubprocess.fork_exec(*args, *extra)
            break
        except TypeError:
            continue
        except OSError:
            break
    return [0] * len(df)
