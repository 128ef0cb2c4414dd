"""freqtrade.strategy: IStrategy and its parameter classes, as far as an audit runs them. A
parameter takes its value as freqtrade's backtest gives it (HyperStrategyMixin): the strategy's
parameter file (`<file>.json` beside it, its "params"), then the class's buy_params,
sell_params and protection_params, then the parameter's default; the hyperopt spaces are not
searched. What needs a live exchange, other pairs or per-trade callbacks is refused with a
sentence naming it (sa_frameworks)."""
from datetime import datetime, timedelta, timezone  # noqa: F401  (strategies import these from here)

from pandas import DataFrame  # noqa: F401

from freqtrade.exchange import (timeframe_to_minutes, timeframe_to_msecs,  # noqa: F401
                                timeframe_to_next_date, timeframe_to_prev_date,
                                timeframe_to_seconds)
from freqtrade.persistence import Order, PairLocks, Trade  # noqa: F401
from freqtrade.strategy.informative_decorator import (DataProvider, gather, informative,  # noqa: F401
                                                      merge_and_populate, merge_informative_pair)
from sa_frameworks import NotSupported

SPACES = ('buy', 'sell', 'protection')


class BaseParameter:
    """A hyperoptable value: its space ('buy', 'sell', 'protection') is space= or the prefix of
    the attribute's name; load=False keeps the default whatever the parameter files say."""
    in_space = False

    def __init__(self, *, default=None, space=None, optimize=True, load=True, **kwargs):
        if 'name' in kwargs:
            raise ValueError('Name is determined by parameter field name and can not be specified '
                             'manually.')
        self.default = default
        self.value = default
        self.category = space
        self.space = space
        self.optimize = optimize
        self.load = load
        self.name = None

    def __repr__(self):
        return '%s(%r)' % (type(self).__name__, self.value)

    def can_optimize(self):
        return False


class NumericParameter(BaseParameter):
    def __init__(self, low, high=None, *, default, space=None, optimize=True, load=True, **kwargs):
        if high is None:
            low, high = low
        self.low, self.high = low, high
        super().__init__(default=default, space=space, optimize=optimize, load=load, **kwargs)


class IntParameter(NumericParameter):
    @property
    def range(self):
        """The one value a backtest uses (freqtrade gives the whole range only to hyperopt)."""
        return range(self.value, self.value + 1)


class RealParameter(NumericParameter):
    pass


class DecimalParameter(NumericParameter):
    def __init__(self, low, high=None, *, default, decimals=3, **kwargs):
        self.decimals = decimals
        super().__init__(low, high, default=round(default, decimals), **kwargs)

    @property
    def range(self):
        return [self.value]


class CategoricalParameter(BaseParameter):
    def __init__(self, categories, *, default=None, **kwargs):
        self.categories = list(categories)
        super().__init__(default=self.categories[0] if default is None else default, **kwargs)

    @property
    def range(self):
        return [self.value]


class BooleanParameter(CategoricalParameter):
    def __init__(self, *, default=True, **kwargs):
        super().__init__([True, False], default=default, **kwargs)


def detect_parameters(obj, category):
    """(name, parameter) of obj's parameters of one space, as freqtrade finds them: every
    attribute (inherited ones too) that is a parameter whose space is category, or that has no
    space and whose name starts with category + '_'."""
    for name in dir(obj):
        if name.startswith('__'):
            continue
        attr = getattr(obj, name)
        if not isinstance(attr, BaseParameter):
            continue
        if name.startswith(category + '_') and attr.category is not None and attr.category != category:
            raise NotSupported('the parameter %s is declared in space %r but named for %r: '
                               'freqtrade refuses it ("Inconclusive parameter name")'
                               % (name, attr.category, category))
        if attr.category == category or (attr.category is None and name.startswith(category + '_')):
            yield name, attr


class HyperStrategyMixin:
    """Loads the parameters' values as freqtrade's backtest does (ft_load_hyper_params): for each
    space, the parameter file's values over the class's <space>_params over the defaults."""

    def ft_load_hyper_params(self, from_file=None):
        """Sets every parameter of the three spaces on this instance (a copy of the class's, so
        the class keeps its defaults) and returns {space: {name: value}} of what was set, with
        the source of each value ('file', '<space>_params' or 'default')."""
        applied = {}
        from_file = from_file or {}
        for space in SPACES:
            given = dict(getattr(self, space + '_params', None) or {})
            filed = from_file.get(space) or {}
            if not isinstance(filed, dict):
                raise NotSupported('the parameter file\'s "%s" is not an object of parameter '
                                   'values' % space)
            for name, attr in detect_parameters(self, space):
                p = type(attr).__new__(type(attr))
                p.__dict__.update(attr.__dict__)
                p.name = name
                if p.category is None:
                    p.category = space
                src = 'default'
                if p.load and name in filed:
                    p.value, src = filed[name], 'file'
                elif p.load and name in given:
                    p.value, src = given[name], space + '_params'
                setattr(self, name, p)
                applied.setdefault(space, {})[name] = (p.value, src)
        return applied


class IStrategy(HyperStrategyMixin):
    """The base class; a strategy overrides populate_indicators and the entry and exit methods."""
    INTERFACE_VERSION = 3
    minimal_roi = {}
    stoploss = -1.0
    trailing_stop = False
    timeframe = None
    can_short = False
    startup_candle_count = 0
    process_only_new_candles = True
    use_exit_signal = True
    use_sell_signal = True
    exit_profit_only = False
    sell_profit_only = False
    exit_profit_offset = 0.0
    sell_profit_offset = 0.0
    ignore_roi_if_entry_signal = False
    ignore_roi_if_buy_signal = False
    use_custom_stoploss = False
    position_adjustment_enable = False
    order_types = {}
    order_time_in_force = {}
    plot_config = {}

    def __init__(self, config=None):
        self.config = config if config is not None else {}  # freqtrade's: the object given
        self.dp = DataProvider()
        self.wallets = None
        self._ft_informative = gather(self)

    def advise_indicators(self, dataframe, metadata):
        """freqtrade's: each @informative method's columns merged on, then populate_indicators."""
        for inf, populate in self._ft_informative:
            dataframe = merge_and_populate(self, dataframe, metadata, inf, populate)
        return self.populate_indicators(dataframe, metadata)

    def informative_pairs(self):
        return []

    def populate_indicators(self, dataframe, metadata):
        return dataframe

    def populate_entry_trend(self, dataframe, metadata):
        return self.populate_buy_trend(dataframe, metadata)

    def populate_exit_trend(self, dataframe, metadata):
        return self.populate_sell_trend(dataframe, metadata)

    def populate_buy_trend(self, dataframe, metadata):
        return dataframe

    def populate_sell_trend(self, dataframe, metadata):
        return dataframe

    def bot_start(self, **kwargs):
        pass

    def bot_loop_start(self, **kwargs):
        pass


def stoploss_from_open(open_relative_stop, current_profit, is_short=False, leverage=1.0):
    """freqtrade's helper: the stop relative to the current rate that sits open_relative_stop from
    the trade's open rate, at least 0 (strategy/strategy_helper.py's formula)."""
    p = current_profit / leverage
    if (p == -1 and not is_short) or (is_short and p == 1):
        return 1
    if is_short:
        stoploss = -1 + ((1 - open_relative_stop / leverage) / (1 - p))
    else:
        stoploss = 1 - ((1 + open_relative_stop / leverage) / (1 + p))
    return max(stoploss * leverage, 0.0)


def stoploss_from_absolute(stop_rate, current_rate, is_short=False, leverage=1.0):
    """freqtrade's helper: the stop relative to current_rate that sits at stop_rate, within 0 and 1
    (times the leverage)."""
    if current_rate == 0:
        return 1
    stoploss = 1 - (stop_rate / current_rate)
    if is_short:
        stoploss = -stoploss
    return max(min(stoploss, 1.0), 0.0) * leverage
