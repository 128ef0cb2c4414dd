# tries: reaches around the audit hook, then creates processes with raw system calls the
#        Python entry points never make: fork, vfork, clone with CLONE_VFORK|CLONE_VM, clone with
#        namespace flags beside CLONE_THREAD, clone3 (flags in memory seccomp cannot read),
#        io_uring (its operations bypass seccomp).
# must record: each refused by the kernel filter (seccomp.fork, seccomp.clone, seccomp.vfork,
#              seccomp.io_uring_setup); clone3 is ENOSYS; no process ever ran (signals 0).
# expect-status: ok
# expect-action: seccomp.fork
# expect-action: seccomp.vfork
# expect-action: seccomp.clone
# expect-action: seccomp.io_uring_setup
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
    made = 0
    tries = [(57,), (58,), (56, 0x4000 | 0x100 | 17, 0, 0, 0, 0), (56, 17, 0, 0, 0, 0),
             (56, 0x10000000 | 0x10000 | 0x800 | 0x100, 0, 0, 0, 0),  # CLONE_NEWUSER|THREAD
             (56, 0x20000000 | 0x10000 | 0x800 | 0x100, 0, 0, 0, 0),  # CLONE_NEWPID|THREAD
             (435, ctypes.create_string_buffer(b"\x11" + b"\0" * 87, 88), 88)]
    for t in tries:
        r = c.syscall(*t)
        if r == 0:
            os._exit(0)  # a child: leave at once
        if r > 0:
            made += 1
    if c.syscall(425, 8, ctypes.create_string_buffer(120)) >= 0:  # io_uring_setup
        made += 1
    return [1 if made else 0] * len(df)
