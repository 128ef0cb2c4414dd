# tries: to change what every other run (and every other audit, and the host) finds in the page
#        cache: posix_fadvise DONTNEED, WILLNEED and NOREUSE on the interpreter's own files;
#        then, around the audit hook, readahead, madvise PAGEOUT, COLD, WILLNEED,
#        POPULATE_READ, REMOVE and MERGEABLE on a mapping of a library file, and the residency
#        readouts mincore and cachestat. malloc's own advice (DONTNEED, FREE) on anonymous
#        memory must still work, and so must SEQUENTIAL (the open file's own read-ahead).
# must record: each refused by the kernel filter, "runs share nothing"; every signal is 1 only
#              if every one of them failed with EPERM and malloc's advice worked.
# expect-status: ok
# expect-event: seccomp.fadvise64 | runs share nothing
# expect-event: seccomp.readahead | runs share nothing
# expect-event: seccomp.madvise | runs share nothing
# expect-event: seccomp.mincore | runs share nothing
# expect-event: seccomp.cachestat | runs share nothing
# expect-signal-sum: 300
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
import errno, os
import numpy
def refused(f):
    try:
        f()
    except OSError as e:
        return e.errno == errno.EPERM
    return False
def signals(df):
    ok = True
    with open(numpy.__file__, "rb") as f:
        fd = f.fileno()
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_SEQUENTIAL)
        for advice in (os.POSIX_FADV_DONTNEED, os.POSIX_FADV_WILLNEED, os.POSIX_FADV_NOREUSE):
            ok &= refused(lambda: os.posix_fadvise(fd, 0, 0, advice))
    ctypes, c = libc()
    c.syscall.argtypes = [ctypes.c_long] * 6
    def call(nr, *a):
        a = list(a) + [0] * (5 - len(a))
        r = c.syscall(nr, *a)
        return r, ctypes.get_errno()
    path = os.path.join(os.path.dirname(numpy.__file__), "core", "_multiarray_umath.cpython-311-x86_64-linux-gnu.so")
    fd = os.open(path, os.O_RDONLY)
    size = os.fstat(fd).st_size & ~4095
    r, e = call(187, fd, 0, size)                             # readahead
    ok &= r == -1 and e == errno.EPERM
    m, _ = call(9, 0, size, 1, 2, fd, 0)                      # mmap PROT_READ, MAP_PRIVATE
    for advice in (21, 20, 3, 22, 9, 12):                     # PAGEOUT COLD WILLNEED POPULATE_READ REMOVE MERGEABLE
        r, e = call(28, m, size, advice)
        ok &= r == -1 and e == errno.EPERM
    vec = ctypes.create_string_buffer(size // 4096 + 1)
    r, e = call(27, m, size, ctypes.addressof(vec))           # mincore
    ok &= r == -1 and e == errno.EPERM
    cs = ctypes.create_string_buffer(64)
    rng = ctypes.create_string_buffer(16)
    r, e = call(451, fd, ctypes.addressof(rng), ctypes.addressof(cs), 0)   # cachestat
    ok &= r == -1 and e == errno.EPERM
    anon, _ = call(9, 0, 1 << 21, 3, 0x22, -1 & 0xffffffffffffffff, 0)     # anonymous, read-write
    for advice in (4, 8, 14):                                 # DONTNEED FREE HUGEPAGE: malloc's and numpy's
        r, e = call(28, anon, 1 << 21, advice)
        ok &= r == 0
    print("all refused, malloc's advice works:", ok)
    return [1 if ok else 0] * len(df)
