"""freqtrade.strategy.parameters: the parameter classes, as freqtrade.strategy's."""
from freqtrade.strategy import (BaseParameter, BooleanParameter, CategoricalParameter,  # noqa: F401
                                DecimalParameter, IntParameter, NumericParameter, RealParameter)
