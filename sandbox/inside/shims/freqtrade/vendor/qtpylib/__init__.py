"""freqtrade.vendor.qtpylib: its indicators module."""
