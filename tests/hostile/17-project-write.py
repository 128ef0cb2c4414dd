# tries: writes into the project tree (a new file at the root and an append to the Makefile).
# must record: the writes refused (open, "writes stay in scratch").
# expect-status: ok
# expect-action: open
PROJECT = "@PROJECT@"  # tests/e2e/31-hostile.sh fills in the checkout's absolute path
def signals(df):
    for path, mode in ((PROJECT + "/strataudit-hostile-17.txt", "w"), (PROJECT + "/Makefile", "a")):
        try:
            with open(path, mode) as f:
                f.write("\n# pwned\n")
        except Exception:
            pass
    return [0] * len(df)
