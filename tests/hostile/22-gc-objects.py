# tries: gc.get_objects() to find other DataFrames or arrays (a hidden future, the raw data).
# must record: refused (gc.get_objects).
# expect-status: ok
# expect-action: gc.get_objects
import gc
def signals(df):
    try:
        found = [o for o in gc.get_objects() if type(o).__name__ == "DataFrame" and o is not df]
    except Exception:
        found = []
    return [1 if found else 0] * len(df)
