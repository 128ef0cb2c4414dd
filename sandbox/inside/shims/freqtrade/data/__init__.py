"""freqtrade.data: the package strategies import from (its dataprovider module). What reads or
downloads other data (history, converter) is refused by name."""
