# tries: a huge anonymous mapping (64 GB, never touched), then a 4 GB one touched page by page,
#        hoping only touched pages count; the mmap module is refused, so numpy's allocator maps.
# must record: the import of mmap refused; the address-space limit refuses both mappings (a 1
#              means one succeeded).
# expect-status: ok
# expect-event: import | no raw memory mappings
# expect-signal-sum: 0
import numpy as np
def signals(df):
    try:
        import mmap
    except PermissionError:
        pass
    ok = 0
    for size, touch in ((64 << 30, False), (4 << 30, True)):
        try:
            m = np.empty(size, dtype=np.uint8)
            ok += 1
            if touch:
                m[::4096] = 1
        except (OSError, MemoryError, ValueError):
            pass
    return [1 if ok else 0] * len(df)
