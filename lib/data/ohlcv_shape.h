/* ohlcv_shape.h - the spacing of a bar series: its median step, its gaps, and refusal of a
 * file whose steps make no single series. */
#ifndef SA_OHLCV_SHAPE_H
#define SA_OHLCV_SHAPE_H

#include <stddef.h>

#include "ohlcv.h"

/* Weekdays a market may close for in a row (a holiday week, as Shanghai's Golden Week). */
#define DA_HOLIDAY_WEEKDAYS 5

/* Sets s->fmt's spacing_s (the median step), sessions, gaps, missing_bars and largest_gap_s.
 * Every step must be a whole multiple of the median (within an hour for daily or longer bars,
 * for clocks that change with the season). In a session calendar a step from one day to a
 * later one that skips at most DA_HOLIDAY_WEEKDAYS weekdays is a closure (a weekend, a
 * holiday), not a gap; a longer one is a gap of the weekdays it skips (of its missing bars,
 * for bars shorter than a day). first_line is the file line of the first row (bar 0, or the
 * last bar when the rows were reversed), for the message.
 * Returns 0, or -1 with "line N: ..." in err. */
int da_ohlcv_shape(struct da_ohlcv *s, size_t first_line, char *err, size_t errlen);

#endif
