"""freqtrade.vendor: qtpylib."""
