"""freqtrade.data.dataprovider: DataProvider, the type of a strategy's self.dp (the audited
pair's own bars, freqtrade.strategy.informative_decorator)."""
from freqtrade.strategy.informative_decorator import DataProvider  # noqa: F401
