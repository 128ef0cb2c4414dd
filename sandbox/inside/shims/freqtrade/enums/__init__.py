"""freqtrade.enums: the enumerations strategies read (the run mode, the trading and margin
modes, candle types, exit types), with freqtrade's names and values. An audit is freqtrade's
backtest: its run mode is RunMode.BACKTEST, its trading mode spot."""
from enum import Enum


class RunMode(str, Enum):
    LIVE = 'live'
    DRY_RUN = 'dry_run'
    BACKTEST = 'backtest'
    EDGE = 'edge'
    HYPEROPT = 'hyperopt'
    UTIL_EXCHANGE = 'util_exchange'
    UTIL_NO_EXCHANGE = 'util_no_exchange'
    PLOT = 'plot'
    WEBSERVER = 'webserver'
    OTHER = 'other'


TRADE_MODES = [RunMode.LIVE, RunMode.DRY_RUN]
OPTIMIZE_MODES = [RunMode.BACKTEST, RunMode.EDGE, RunMode.HYPEROPT]
NON_UTIL_MODES = TRADE_MODES + OPTIMIZE_MODES


class _Named(str, Enum):
    def __str__(self):
        return self.name.lower()


class TradingMode(_Named):
    SPOT = 'spot'
    MARGIN = 'margin'
    FUTURES = 'futures'


class MarginMode(_Named):
    CROSS = 'cross'
    ISOLATED = 'isolated'
    NONE = ''


class CandleType(_Named):
    SPOT = 'spot'
    FUTURES = 'futures'
    MARK = 'mark'
    INDEX = 'index'
    PREMIUMINDEX = 'premiumIndex'
    FUNDING_RATE = 'funding_rate'

    @staticmethod
    def from_string(value):
        return CandleType(value) if value else CandleType.SPOT

    @staticmethod
    def get_default(trading_mode):
        return CandleType.FUTURES if trading_mode == 'futures' else CandleType.SPOT


class ExitType(Enum):
    ROI = 'roi'
    STOP_LOSS = 'stop_loss'
    STOPLOSS_ON_EXCHANGE = 'stoploss_on_exchange'
    TRAILING_STOP_LOSS = 'trailing_stop_loss'
    LIQUIDATION = 'liquidation'
    EXIT_SIGNAL = 'exit_signal'
    FORCE_EXIT = 'force_exit'
    EMERGENCY_EXIT = 'emergency_exit'
    CUSTOM_EXIT = 'custom_exit'
    PARTIAL_EXIT = 'partial_exit'
    SOLD_ON_EXCHANGE = 'sold_on_exchange'
    NONE = ''

    def __str__(self):
        return self.value
