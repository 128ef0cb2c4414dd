# tries: allocates far more memory than the limit allows.
# must record: the run stopped at the memory limit (status killed_memory, action memory).
# expect-status: killed_memory
# expect-action: memory
def signals(df):
    hog = []
    while True:
        hog.append(bytearray(256 * 1024 * 1024))
