"""freqtrade.strategy: IStrategy and its parameter classes, as far as an audit runs them. A
parameter is its default (the hyperopt spaces are not searched); what needs a live exchange,
other pairs or per-trade callbacks is refused with a sentence naming it (sa_frameworks)."""
from datetime import datetime, timedelta, timezone  # noqa: F401  (strategies import these from here)

from pandas import DataFrame  # noqa: F401

from sa_frameworks import NotSupported


class BaseParameter:
    def __init__(self, *, default=None, space=None, optimize=True, load=True, **kwargs):
        self.default = default
        self.value = default
        self.space = space
        self.optimize = optimize
        self.load = load

    def __repr__(self):
        return '%s(%r)' % (type(self).__name__, self.value)


class NumericParameter(BaseParameter):
    def __init__(self, low, high=None, *, default, space=None, optimize=True, load=True, **kwargs):
        if high is None:
            low, high = low
        self.low, self.high = low, high
        super().__init__(default=default, space=space, optimize=optimize, load=load)


class IntParameter(NumericParameter):
    @property
    def range(self):
        return range(self.low, self.high + 1)


class RealParameter(NumericParameter):
    pass


class DecimalParameter(NumericParameter):
    def __init__(self, low, high=None, *, default, decimals=3, **kwargs):
        self.decimals = decimals
        super().__init__(low, high, default=round(default, decimals), **kwargs)


class CategoricalParameter(BaseParameter):
    def __init__(self, categories, *, default=None, **kwargs):
        self.categories = list(categories)
        super().__init__(default=self.categories[0] if default is None else default, **kwargs)

    @property
    def range(self):
        return self.categories


class BooleanParameter(CategoricalParameter):
    def __init__(self, *, default=True, **kwargs):
        super().__init__([True, False], default=default, **kwargs)


class IStrategy:
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
    ignore_roi_if_entry_signal = False
    use_custom_stoploss = False
    position_adjustment_enable = False
    order_types = {}
    order_time_in_force = {}
    plot_config = {}

    def __init__(self, config=None):
        self.config = dict(config or {})
        self.dp = _DataProvider()
        self.wallets = None

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


class _DataProvider:
    """self.dp: nothing beyond the strategy's own bars exists in the sandbox."""
    runmode = type('RunMode', (), {'value': 'backtest'})()

    def __getattr__(self, name):
        raise NotSupported('self.dp.%s is not supported: the audit gives a strategy its own pair\'s '
                           'bars only (no other pairs, timeframes, order book or ticker)' % name)


def merge_informative_pair(*args, **kwargs):
    raise NotSupported('merge_informative_pair is not supported: an informative pair needs other '
                       'pairs or timeframes, and the audit gives a strategy its own bars only')


def informative(*args, **kwargs):
    raise NotSupported('the @informative decorator is not supported: an informative pair needs '
                       'other pairs or timeframes, and the audit gives a strategy its own bars only')


def _custom_stoploss_helper(name):
    def refuse(*args, **kwargs):
        raise NotSupported('%s is not supported: custom stoplosses are per-trade callbacks; '
                           'declare stoploss as a constant' % name)
    refuse.__name__ = name
    return refuse


stoploss_from_open = _custom_stoploss_helper('stoploss_from_open')
stoploss_from_absolute = _custom_stoploss_helper('stoploss_from_absolute')


def timeframe_to_minutes(timeframe):
    import sa_frameworks
    return sa_frameworks.timeframe_seconds(timeframe) // 60


def timeframe_to_seconds(timeframe):
    import sa_frameworks
    return sa_frameworks.timeframe_seconds(timeframe)
