/* inspect_neighbours.h - the neighbourhood of the audited parameters: every numeric parameter
 * of the strategy (a keyword default of signals(df, ...), a numeric class attribute of a
 * backtesting.py Strategy, a freqtrade IntParameter, DecimalParameter or RealParameter at the
 * value the backtest gives it, a number written in signals()' body) moved to nearby values, and the parameter sets the variants
 * stage runs for them. The literals are read in the parsing child; the sets are built here. */
#ifndef INSPECT_NEIGHBOURS_H
#define INSPECT_NEIGHBOURS_H

#include <Python.h>
#include <cjson/cJSON.h>

/* The most parameters moved (the first in the file's order; more: truncated). */
#define INSPECT_NB_MAX_PARAMS 8
/* The relative moves of each parameter, in set order. */
#define INSPECT_NB_LEVELS 4

/* The numeric keyword defaults of signals() and the numeric literals of its body and of the
 * module's functions it calls (from "literal", named "@LINE:COL"), or, without signals(), the
 * numeric class attributes of a backtesting.py Strategy subclass, of a parsed module
 * (borrowed) whose source is src, as a JSON array [{name, value, integer, line, from}], or
 * NULL when there are none or the reader failed. A new array, caller frees. Runs in the
 * parsing child. */
cJSON *inspect_neighbours_read(PyObject *module, const char *src);

/* strategy.neighbourhood from the child's finding "numeric" (checked and rebuilt here), before
 * a freqtrade class's values are known: {declared, parameters, grid, truncated, sets, params,
 * error}. A new object, caller frees. */
cJSON *inspect_neighbours_take(const cJSON *found);

/* (Re)builds s's strategy.neighbourhood (an inspect.json strategy object) from its read
 * parameters and, for a freqtrade class, its numeric hyperopt parameters at the values of
 * strategy.parameters: each parameter's neighbours (x 0.8, 0.9, 1.1, 1.2; an integer rounded
 * half away from zero, moved one further when it would repeat the centre or the inner
 * neighbour, and dropped when it would reach zero or change sign; a zero is not moved), and
 * the sets: the centre ({}), each parameter moved alone, and with exactly two parameters the
 * whole 5 x 5 grid. params holds each set's keyword arguments, sets its nominal moves. Safe to
 * call again (after the parameter file is applied). */
void inspect_neighbours_sets(cJSON *s);

#endif
