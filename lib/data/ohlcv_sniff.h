/* ohlcv_sniff.h - what a bar file's first lines say before any is parsed. */
#ifndef SA_OHLCV_SNIFF_H
#define SA_OHLCV_SNIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "csvfield.h"

/* The delimiter the first line of buf[0..len) uses most (outside quotes): ',', ';' or a tab. */
char da_ohlcv_sniff_delim(const char *buf, size_t len);

/* A first line with no delimiter before a line of a table (CryptoDataDownload's URL, a title):
 * its length with the newline, its text (printable, at most 80 bytes) in said; or 0. */
size_t da_ohlcv_title_line(const char *buf, size_t len, char said[81]);

/* yfinance's download(...).to_csv(): "Price" then the fields' names, "Ticker" then the symbol's
 * in each, the index's name ("Date", "Datetime") then empty fields. Returns true with the
 * index's name in name. */
bool da_ohlcv_yfinance_header(const char *buf, size_t len, char delim, char name[SA_CSV_FIELD_MAX + 1]);

#endif
