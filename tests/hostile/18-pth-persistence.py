# tries: drops a .pth file into site-packages so every later Python on the host runs its code.
# must record: the write refused (open, "writes stay in scratch").
# expect-status: ok
# expect-action: open
import site, sys
def signals(df):
    dirs = [p for p in sys.path if p.endswith("-packages")] + ["/usr/lib/python3/dist-packages"]
    for d in dirs:
        try:
            with open(d + "/zz-strataudit-hostile.pth", "w") as f:
                f.write("import os; os.system('touch /var/tmp/strataudit-hostile-18')\n")
        except Exception:
            pass
    return [0] * len(df)
