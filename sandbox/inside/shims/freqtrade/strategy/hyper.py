"""freqtrade.strategy.hyper: the parameter classes and the mixin that loads their values, as
strategies import them from there."""
from freqtrade.strategy import (BaseParameter, BooleanParameter, CategoricalParameter,  # noqa: F401
                                DecimalParameter, HyperStrategyMixin, IntParameter,
                                NumericParameter, RealParameter)
