/* inspect_exits.h - the exits a strategy declares, read from its syntax tree as literals
 * (module constants STOP_LOSS, TAKE_PROFIT, TRAILING_STOP, ROI, or a freqtrade IStrategy
 * class's stoploss, minimal_roi and trailing attributes), never run. Runs only inside the
 * rlimited parsing child. */
#ifndef INSPECT_EXITS_H
#define INSPECT_EXITS_H

#include <Python.h>
#include <cjson/cJSON.h>

/* The exits of a parsed module (borrowed): {declared, source, class, line, stop_loss,
 * take_profit, trailing, roi, error, error_line, error_col, unread [{name, line, col, why}]}
 * (INSPECT.md, "Exits"). Returns a new object (caller frees), or NULL when out of memory or
 * the reader itself failed. */
cJSON *inspect_exits_read(PyObject *module);

#endif
