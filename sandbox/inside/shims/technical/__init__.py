"""technical (freqtrade's indicator library), as far as strategies use it: its qtpylib module,
technical.util's resampling helpers, and technical.indicators' supertrend and chaikin_money_flow
(cmf). Any other of its functions is refused by name."""
