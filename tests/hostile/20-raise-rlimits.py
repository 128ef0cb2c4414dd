# tries: raises its own resource limits (address space, CPU, file size) back to unlimited.
# must record: refused (resource.setrlimit); the kernel also refuses raising a hard limit.
# expect-status: ok
# expect-action: resource.setrlimit
import resource
def signals(df):
    for lim in (resource.RLIMIT_AS, resource.RLIMIT_CPU, resource.RLIMIT_FSIZE):
        try:
            resource.setrlimit(lim, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        except Exception:
            pass
    return [0] * len(df)
