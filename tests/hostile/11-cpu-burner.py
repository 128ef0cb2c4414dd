# tries: burns CPU forever in a tight loop.
# must record: the CPU limit kill (status killed_cpu, action cpu_time).
# expect-status: killed_cpu
# expect-action: cpu_time
def signals(df):
    x = 0
    while True:
        x += 1
