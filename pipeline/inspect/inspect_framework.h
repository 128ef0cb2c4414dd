/* inspect_framework.h - recognising a strategy written for a framework (a freqtrade IStrategy, a
 * backtesting.py Strategy) from its syntax tree, and what it declares as literals. */
#ifndef INSPECT_FRAMEWORK_H
#define INSPECT_FRAMEWORK_H

#include <Python.h>
#include <cjson/cJSON.h>

/* The framework class of module (an ast.Module), as a new object (caller frees): {kind
 * ("freqtrade" or "backtesting"), class, line, timeframe (a string literal or null),
 * startup_candle_count (an int literal or null), can_short (a bool literal or null)}; NULL when
 * the module defines none (a class whose base is named IStrategy, or Strategy in a file that
 * imports backtesting). Nothing is evaluated: a value that is not a literal is null. */
cJSON *inspect_framework(PyObject *module);

#endif
