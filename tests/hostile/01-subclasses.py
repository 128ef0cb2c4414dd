# tries: climbs the object graph (object.__subclasses__) to find os._wrap_close and call
#        system() through its module globals, the classic restricted-Python escape.
# must record: the shell call refused by the audit hook (os.system).
# expect-status: ok
# expect-action: os.system
def signals(df):
    for cls in ().__class__.__base__.__subclasses__():
        if cls.__name__ == "_wrap_close":
            try:
                cls.__init__.__globals__["system"]("touch /var/tmp/strataudit-hostile-01")
            except Exception:
                pass
    return [0] * len(df)
