"""freqtrade, as far as a strategy file needs it: freqtrade.strategy and qtpylib."""
__version__ = 'strataudit'
