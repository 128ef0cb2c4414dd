# tries: a huge anonymous mapping with MAP_NORESERVE (64 GB, never touched), then a 4 GB one
#        touched page by page, hoping only touched pages count.
# must record: the address-space limit refuses both mappings (a 1 means one succeeded).
# expect-status: ok
# expect-signal-sum: 0
import mmap
def signals(df):
    ok = 0
    for size, touch in ((64 << 30, False), (4 << 30, True)):
        try:
            m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x4000)
            ok += 1
            if touch:
                for i in range(0, size, 4096):
                    m[i] = 1
        except (OSError, MemoryError, ValueError):
            pass
    return [1 if ok else 0] * len(df)
