# tries: inotify, which neither Landlock nor the kernel filter covers: watches directories outside
#        its view (/var/tmp, /etc, the project) to learn the names of files the host creates
#        there, and opens inotify instances until the descriptor limit; those instances are
#        charged to root's fs.inotify.max_user_instances (128) on the host, so root processes
#        (systemd, sshd, editors) cannot start inotify while the run lives. Reaches around the
#        audit hook first (numpy raw memory), then calls inotify through ctypes.
# must record: inotify refused by the kernel filter (seccomp.inotify_init1); every signal stays 0
#              (a 1 means a watch outside scratch was added or more than 4 instances opened).
# expect-status: ok
# expect-action: seccomp.inotify_init1
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
PROJECT = "@PROJECT@"  # tests/e2e/31-hostile.sh fills in the checkout's absolute path
def signals(df):
    ctypes, c = libc()
    fds = []
    for _ in range(200):
        fd = c.syscall(294, 0)  # inotify_init1
        if fd < 0:
            break
        fds.append(fd)
    watched = 0
    for d in (b"/var/tmp", b"/etc", PROJECT.encode(), b"/usr/lib/python3.11"):
        if fds and c.syscall(254, fds[0], d, 0x300 | 0x2 | 0xc0) >= 0:  # inotify_add_watch
            watched += 1
    print("instances", len(fds), "watches", watched)
    return [1 if watched or len(fds) > 4 else 0] * len(df)
