# tries: writable and executable memory, the step before running injected machine code: an
#        anonymous PROT_READ|WRITE|EXEC mapping, then mprotect and pkey_mprotect adding PROT_EXEC
#        to a writable page. Reaches around the audit hook first (which refuses mmap and ctypes).
#        Then imports an extension module nothing had loaded (pyexpat,
#        which brings libexpat) and uses it: the loader's
#        file-backed executable mappings must still work.
# must record: all three refused by the kernel filter with their rule; every signal is 1 only if
#              no executable page was granted and the fresh extension module worked.
# expect-status: ok
# expect-event: seccomp.mmap | no executable memory
# expect-event: seccomp.mprotect | no executable memory
# expect-event: seccomp.pkey_mprotect | no executable memory
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
import sys
def signals(df):
    fresh = "pyexpat" not in sys.modules
    ctypes, c = libc()
    import mmap
    granted = 0
    try:
        mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
        granted += 1
    except OSError:
        pass
    page = mmap.mmap(-1, 4096)
    addr = ctypes.addressof(ctypes.c_char.from_buffer(page))
    c.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    if c.mprotect(addr, 4096, 7) == 0:
        granted += 1
    if c.syscall(329, ctypes.c_void_p(addr), ctypes.c_size_t(4096), 7, -1) == 0:  # pkey_mprotect
        granted += 1
    import pyexpat
    got = []
    p = pyexpat.ParserCreate()
    p.CharacterDataHandler = got.append
    p.Parse(b"<bar>42</bar>", True)
    works = got == ["42"]
    print("granted", granted, "fresh", fresh, "pyexpat", works)
    return [1 if fresh and works and not granted else 0] * len(df)
