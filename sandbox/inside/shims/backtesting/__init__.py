"""backtesting (backtesting.py): Strategy and Backtest as far as an audit runs them. next() runs
bar by bar; buy(), sell() and position.close() become the position held from the next bar's
open, which is backtesting.py's own fill. A Backtest(...) in the file is read for its strategy
and exclusive_orders only: the audit's data, costs and statistics are its own."""
import numpy as np
import pandas as pd

from sa_frameworks import NotSupported

__version__ = 'strataudit'
_declared = []
# How many parameter combinations the file's optimize() calls searched, summed (None: no call):
# each is a trial the audit counts (run.json declared_search).
_declared_search = None

# The fields of backtesting.py's run() and optimize() statistics, in its order.
STATS_KEYS = ('Start', 'End', 'Duration', 'Exposure Time [%]', 'Equity Final [$]',
              'Equity Peak [$]', 'Commissions [$]', 'Return [%]', 'Buy & Hold Return [%]',
              'Return (Ann.) [%]', 'Volatility (Ann.) [%]', 'CAGR [%]', 'Sharpe Ratio',
              'Sortino Ratio', 'Calmar Ratio', 'Alpha [%]', 'Beta', 'Max. Drawdown [%]',
              'Avg. Drawdown [%]', 'Max. Drawdown Duration', 'Avg. Drawdown Duration', '# Trades',
              'Win Rate [%]', 'Best Trade [%]', 'Worst Trade [%]', 'Avg. Trade [%]',
              'Max. Trade Duration', 'Avg. Trade Duration', 'Profit Factor', 'Expectancy [%]',
              'SQN', 'Kelly Criterion', '_strategy', '_equity_curve', '_trades')


class _Array(np.ndarray):
    """A column of self.data: an array, with .s (a Series on the bars' index) as backtesting.py's."""
    def __array_finalize__(self, obj):
        self._index = getattr(obj, '_index', None)

    @property
    def s(self):
        return pd.Series(np.asarray(self), index=self._index[:len(self)])

    def to_series(self):
        return self.s


class _Indicator(_Array):
    pass


class _Data:
    """self.data: the bars up to the current one (all of them during init)."""
    def __init__(self, df):
        self._df = df
        self._index = df.index
        self._cols = {}
        for src, name in (('open', 'Open'), ('high', 'High'), ('low', 'Low'), ('close', 'Close'),
                          ('volume', 'Volume')):
            a = df[src].to_numpy(dtype=np.float64).view(_Array)
            a._index = df.index
            self._cols[name] = a
        self._len = len(df)

    def _set_length(self, n):
        self._len = n

    def __len__(self):
        return self._len

    def __getattr__(self, name):
        cols = self.__dict__.get('_cols', {})
        if name in cols:
            return cols[name][:self._len]
        raise AttributeError('self.data has no column %r: it has Open, High, Low, Close, Volume' % name)

    @property
    def index(self):
        return self._index[:self._len]

    @property
    def df(self):
        d = self._df.iloc[:self._len]
        return pd.DataFrame({k: d[s] for k, s in (('Open', 'open'), ('High', 'high'), ('Low', 'low'),
                                                   ('Close', 'close'), ('Volume', 'volume'))})


class _Trade:
    def __init__(self, broker):
        self._broker = broker

    @property
    def is_long(self):
        return self._broker.state > 0

    @property
    def is_short(self):
        return self._broker.state < 0

    @property
    def size(self):
        return self._broker.state

    @property
    def entry_bar(self):
        return self._broker.entry_bar

    @property
    def entry_price(self):
        return float(self._broker.data._cols['Open'][self._broker.entry_bar])

    @property
    def pl_pct(self):
        if not self._broker.state:
            return 0.0
        last = float(self._broker.data.Close[-1])
        return self._broker.state * (last / self.entry_price - 1)

    def close(self, portion=1.0):
        assert 0 < portion <= 1, 'portion must be a fraction between 0 and 1'
        if portion < 1:
            raise NotSupported('closing part of a trade (close(portion=%g)) is not supported: the '
                               'audit holds one whole trade at a time; close it whole (portion=1) '
                               'to audit the strategy' % portion)
        self._broker.close_order()

    # A trade's own stop-loss and take-profit: none, since orders carry none (_Broker.order).
    sl = property(lambda self: None, lambda self, price: _no_levels('trade.sl = %r' % (price,)))
    tp = property(lambda self: None, lambda self, price: _no_levels('trade.tp = %r' % (price,)))


def _no_levels(what):
    raise NotSupported('backtesting.py\'s per-trade stop-loss and take-profit prices (%s) are not '
                       'supported: the audit fills each trade\'s exits on the host, from the '
                       'bars, and a price the strategy sets per order or per trade does not cross '
                       'the sandbox; declare STOP_LOSS and TAKE_PROFIT as constant fractions of the '
                       'entry price in the file to audit the strategy with fixed exits' % what)


# backtesting.py's default size, all the available equity (1 - epsilon; 0.9999 before 0.4).
FULL_EQUITY = 1 - 2.220446049250313e-16
FULL_EQUITY_MIN = 0.9999


class _Position(_Trade):
    def __bool__(self):
        return self._broker.state != 0


class _Broker:
    def __init__(self, data, exclusive):
        self.data = data
        self.exclusive = exclusive
        self.state = 0
        self.entry_bar = None
        self.orders = []

    def order(self, side, size, limit, stop, sl, tp):
        if limit is not None or stop is not None:
            raise NotSupported('backtesting.py limit= and stop= orders are not supported: the audit '
                               'fills every order at the next bar\'s open')
        if sl is not None or tp is not None:
            _no_levels('self.%s(%s)' % (side, ', '.join('%s=%r' % (k, v) for k, v in
                                                       (('sl', sl), ('tp', tp)) if v is not None)))
        assert 0 < size < 1 or round(size) == size >= 1, \
            'size must be a positive fraction of equity, or a positive whole number of units'
        if not FULL_EQUITY_MIN <= size < 1:
            raise NotSupported('self.%s(size=%r) is not supported: the audit replays every trade '
                               'with all the equity, as backtesting.py\'s default size does (%s); '
                               'leave size= out to audit the strategy at full size'
                               % (side, size, 'a fraction of it scales each trade\'s return'
                                  if size < 1 else 'whole units are a share of equity that moves '
                                  'with the price and the account'))
        if self.exclusive:
            self.orders = ['close']
        self.orders.append(side)

    def close_order(self):
        self.orders.insert(0, 'close')

    def fill(self, bar):
        """The orders of bar - 1's next(), filled at bar's open, in backtesting.py's order."""
        before = self.state
        for o in self.orders:
            if o == 'close':
                self.state = 0
            elif self.state == 0 or self.exclusive:
                self.state = 1 if o == 'buy' else -1
            # else: an order against the open trade without exclusive_orders; at its default size
            # backtesting.py has no margin left for it, and cancels it
        self.orders = []
        if self.state and self.state != before:
            self.entry_bar = bar


class Strategy:
    """Subclass it with init() and next(), as for backtesting.py."""
    def __init__(self, broker, data, params):
        self._broker = broker
        self.data = data
        for k, v in params.items():
            if not hasattr(self, k):
                raise AttributeError('strategy has no parameter %r to set' % k)
            setattr(self, k, v)

    def I(self, func, *args, name=None, plot=True, overlay=None, color=None, scatter=False, **kwargs):
        value = func(*args, **kwargs)
        if isinstance(value, pd.DataFrame):
            value = value.to_numpy(dtype=float).T
        value = np.asarray(value, dtype=float)
        if value.ndim == 0 or value.shape[-1] != len(self.data):
            raise ValueError('self.I(%s): the indicator must have one value per bar (%d), not shape %s'
                             % (getattr(func, '__name__', 'func'), len(self.data), value.shape))
        out = value.view(_Indicator)
        out._index = self.data._index
        return out

    def init(self):
        pass

    def next(self):
        pass

    def buy(self, *, size=FULL_EQUITY, limit=None, stop=None, sl=None, tp=None, tag=None):
        self._broker.order('buy', size, limit, stop, sl, tp)

    def sell(self, *, size=FULL_EQUITY, limit=None, stop=None, sl=None, tp=None, tag=None):
        self._broker.order('sell', size, limit, stop, sl, tp)

    @property
    def position(self):
        return _Position(self._broker)

    @property
    def trades(self):
        return (_Trade(self._broker),) if self._broker.state else ()

    @property
    def orders(self):
        return tuple(self._broker.orders)

    @property
    def closed_trades(self):
        raise NotSupported('self.closed_trades is not supported: the audit replays the trades itself')

    @property
    def equity(self):
        raise NotSupported('self.equity is not supported: positions are whole, so equity is the '
                           'audit\'s own figure')


class Backtest:
    """Read for its strategy and exclusive_orders; running it in the file does nothing."""
    def __init__(self, data, strategy, *, cash=10000, commission=0.0, margin=1.0,
                 trade_on_close=False, hedging=False, exclusive_orders=False, **kwargs):
        if trade_on_close:
            raise NotSupported('Backtest(trade_on_close=True) is not supported: the audit fills a '
                               'signal at the next bar\'s open')
        if hedging:
            raise NotSupported('Backtest(hedging=True) is not supported: one position at a time')
        self.strategy = strategy
        self.exclusive_orders = bool(exclusive_orders)
        _declared.append(self)

    def _stats(self, params):
        """A statistics Series with backtesting.py's fields: the audit computes the figures
        itself, outside the sandbox, so inside they are NaN; _strategy is the class with
        params."""
        st = pd.Series(np.nan, index=list(STATS_KEYS), dtype=object)
        st['_strategy'] = type(self.strategy.__name__, (self.strategy,), dict(params))
        st['_equity_curve'] = pd.DataFrame(columns=['Equity', 'DrawdownPct', 'DrawdownDuration'])
        st['_trades'] = pd.DataFrame(columns=['Size', 'EntryBar', 'ExitBar', 'EntryPrice',
                                              'ExitPrice', 'PnL', 'ReturnPct', 'EntryTime',
                                              'ExitTime', 'Duration'])
        return st

    def run(self, **kwargs):
        return self._stats(kwargs)

    def optimize(self, *, maximize='SQN', method='grid', max_tries=None, constraint=None,
                 return_heatmap=False, return_optimization=False, random_state=None, **kwargs):
        """backtesting.py's optimize(), as far as the audit needs it: the parameter combinations
        its grid search would try (the admissible ones; with max_tries, the same random subset,
        drawn with random_state as backtesting.py draws it) are counted as declared trials;
        returns what it returns (the statistics, and with return_heatmap a Series of the
        combinations tried, by parameter), with the figures NaN: the audit runs the strategy at
        its declared defaults and computes every figure itself."""
        global _declared_search
        combos = _grid(kwargs, method, max_tries, constraint, maximize, return_optimization,
                       random_state)
        _declared_search = (_declared_search or 0) + len(combos)
        stats = self._stats(combos[0])
        if not return_heatmap:
            return stats
        names = list(kwargs)
        heatmap = pd.Series(np.nan, name=maximize if isinstance(maximize, str) else 'custom',
                            index=pd.MultiIndex.from_tuples([tuple(c.values()) for c in combos],
                                                            names=names))
        return stats, heatmap

    def plot(self, *args, **kwargs):
        return None


class _Combo(dict):
    """A combination of parameter values, read by attribute in a constraint (p.n1 < p.n2)."""
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def _values(v):
    return v if isinstance(v, (list, tuple, range, np.ndarray, pd.Index)) else (v,)


def _grid(kwargs, method, max_tries, constraint, maximize, return_optimization, random_state):
    """The parameter combinations backtesting.py's grid search tries, in its order: every
    combination of the values (the keyword arguments' order) that passes constraint; with
    max_tries (a count, or a fraction in (0, 1]) each is kept when a draw of
    numpy.random.default_rng(random_state) is at most the fraction of the grid it asks for.
    Without random_state backtesting.py's subset is random; the audit draws it with 0, so the
    count is the same from run to run."""
    import itertools
    if method != 'grid':
        raise NotSupported('optimize(method=%r) is not supported: its search depends on a model '
                           'fitted to the results; use method="grid", whose combinations the '
                           'audit counts as trials' % (method,))
    if return_optimization:
        raise NotSupported('optimize(return_optimization=True) is not supported: it needs '
                           'method="sambo"')
    if not kwargs:
        raise ValueError('Need some strategy parameters to optimize')
    if isinstance(maximize, str) and maximize not in STATS_KEYS:
        raise ValueError('`maximize`, if str, must match a key in pd.Series result of '
                         'backtest.run()')
    names = list(kwargs)
    grids = [list(_values(kwargs[k])) for k in names]
    for k, g in zip(names, grids):
        if not g:
            raise ValueError("Optimization variable '%s' is passed no optimization values: "
                             "%s=%r" % (k, k, kwargs[k]))
    ok = constraint if constraint is not None else (lambda p: True)
    every = [_Combo(zip(names, c)) for c in itertools.product(*grids)]
    size = len(every)
    if size < 10000 and constraint is not None:
        size = sum(1 for c in every if ok(c))
    frac = (1 if max_tries is None else max_tries if 0 < max_tries <= 1 else
            max_tries / size if size else 1)
    draw = np.random.default_rng(0 if random_state is None else random_state).random
    combos = [dict(c) for c in every if ok(c) and draw() <= frac]
    if not combos:
        raise ValueError('No admissible parameter combinations to test')
    return combos
