"""talib.abstract, TA-Lib's abstract API: a function takes a DataFrame (or a dict of arrays)
with open, high, low, close and volume, or the input arrays themselves, then its parameters by
position or name (a name the function does not take is passed over, as TA-Lib's abstract API
does); one output comes back as a Series (an array for array inputs), several as a
DataFrame named as TA-Lib names them."""
import numpy as np
import pandas as pd

from talib import _ta
from talib._ta import FUNCTIONS


class Function:
    def __init__(self, name):
        name = name.upper()
        if name not in FUNCTIONS:
            raise _ta.unsupported(name)
        self.name = name
        self._inputs, self._params, self._outputs = FUNCTIONS[name]

    @property
    def output_names(self):
        return list(self._outputs)

    def _columns(self, frame, kwargs):
        names = list(self._inputs)
        if 'price' in kwargs:
            names[0] = kwargs.pop('price')
        if 'prices' in kwargs:
            names = list(kwargs.pop('prices'))
        try:
            return [np.asarray(frame[c], dtype=np.float64) for c in names]
        except KeyError as e:
            raise KeyError('talib.abstract.%s needs a column %s' % (self.name, e)) from None

    def __call__(self, *args, **kwargs):
        args = list(args)
        index = None
        if args and isinstance(args[0], (pd.DataFrame, dict)):
            frame = args.pop(0)
            if isinstance(frame, pd.DataFrame):
                index = frame.index
            inputs = self._columns(frame, kwargs)
        else:
            k = len(self._inputs)
            inputs, args = args[:k], args[k:]
            index = next((a.index for a in inputs if isinstance(a, pd.Series)), None)
            inputs = [np.asarray(a, dtype=np.float64) for a in inputs]
        params = dict(self._params)
        for (key, _), value in zip(self._params, args):
            params[key] = value
        for key, value in kwargs.items():
            if key in params:  # TA-Lib's set_function_args passes over any other name
                params[key] = value
        out = getattr(_ta, self.name)(*inputs, **params)
        if index is None:
            return list(out) if isinstance(out, tuple) else out
        if isinstance(out, tuple):
            return pd.DataFrame(dict(zip(self._outputs, out)), index=index)
        return pd.Series(out, index=index)


for _name in FUNCTIONS:
    globals()[_name] = Function(_name)


def __getattr__(name):
    if name.isupper():
        raise _ta.unsupported(name)
    raise AttributeError("module 'talib.abstract' has no attribute %r" % name)
