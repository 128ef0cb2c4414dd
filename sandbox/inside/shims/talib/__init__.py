"""talib, TA-Lib's function API over the sandbox's own implementations (talib/_ta.py): each
function takes arrays or pandas Series; given a Series it returns Series on the same index."""
import numpy as np
import pandas as pd

from talib import _groups, _ta
from talib._ta import FUNCTIONS

__all__ = sorted(FUNCTIONS)
MA_Type = type('MA_Type', (), {'SMA': 0, 'EMA': 1, 'WMA': 2, 'DEMA': 3, 'TEMA': 4})


def _wrap(name):
    core = getattr(_ta, name)

    def fn(*args, **kwargs):
        index = next((a.index for a in args if isinstance(a, pd.Series)), None)
        out = core(*[a.to_numpy(dtype=np.float64) if isinstance(a, pd.Series) else a for a in args],
                   **kwargs)
        if index is None:
            return out
        if isinstance(out, tuple):
            return tuple(pd.Series(o, index=index) for o in out)
        return pd.Series(out, index=index)
    fn.__name__ = fn.__qualname__ = name
    return fn


for _name in FUNCTIONS:
    globals()[_name] = _wrap(_name)


def get_functions():
    """Every function TA-Lib has, as TA-Lib's get_functions() lists them (those the sandbox does
    not provide are refused by name when called)."""
    return list(_groups.ALL)


def get_function_groups():
    """TA-Lib's groups of functions, as TA-Lib's get_function_groups() gives them."""
    return {group: list(names) for group, names in _groups.GROUPS.items()}


def __getattr__(name):
    if name.isupper():
        raise _ta.unsupported(name)
    raise AttributeError("module 'talib' has no attribute %r" % name)
