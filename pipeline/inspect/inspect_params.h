/* inspect_params.h - a freqtrade strategy's hyperoptable parameters, read from its syntax tree as
 * literals (never run), and the values freqtrade's backtest gives them: the parameter file beside
 * the strategy over the class's buy_params, sell_params and protection_params over the defaults.
 * The reading runs in the rlimited parsing child; the merge with the file runs in the parent. */
#ifndef INSPECT_PARAMS_H
#define INSPECT_PARAMS_H

#include <Python.h>
#include <cjson/cJSON.h>

/* The parameters of the freqtrade class of a parsed module (borrowed), as a new object (caller
 * frees): {declared [{name, space, default, load, line}], given {buy, sell, protection}}, a
 * default that is not a literal null; NULL when the module has no IStrategy class or the reader
 * failed. */
cJSON *inspect_params_read(PyObject *module);

/* strategy.parameters from the child's finding found (borrowed), before any parameter file:
 * {file: null, file_error: null, values [{name, space, value, from, load}]}, from one of
 * "buy_params", "sell_params", "protection_params" or "default" (a value that is not a literal
 * is null). Names and texts are checked and cut as every child text is. A new object. */
cJSON *inspect_params_take(const cJSON *found);

/* Applies freqtrade's parameter file beside the strategy at path (its ending replaced by
 * .json) to s (an inspect.json strategy object of a freqtrade class) as freqtrade's backtest
 * applies it: its "params" values over the others (from "file"; a parameter with load false
 * keeps its value), and its roi, stoploss and trailing settings over the class's in
 * strategy.exits (out of range: strategy.exits.error). A file for another class, or one that is
 * not JSON, is strategy.parameters.file_error, as freqtrade refuses or ignores it. No file:
 * nothing changes. */
void inspect_params_file(cJSON *s, const char *path);

#endif
