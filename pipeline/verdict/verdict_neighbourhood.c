/* verdict_neighbourhood.c - the neighbourhood rule (verdict_neighbourhood.h). */
#include "verdict_neighbourhood.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsonio.h"

void vd_nb_load(const cJSON *stats, struct vd_nb *nb)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(stats, "neighbourhood");
	const char *shape = sa_json_str(o, "shape", "");

	memset(nb, 0, sizeof *nb);
	nb->measured = sa_json_bool(o, "measured", false);
	nb->peak = nb->measured && !strcmp(shape, "peak");
	nb->plateau = nb->measured && !strcmp(shape, "plateau");
	nb->keep = sa_json_num(o, "keep", NAN);
	nb->keep_min = sa_json_num(o, "keep_min", NAN);
	nb->centre = sa_json_num(o, "centre_sharpe", NAN);
	nb->median = sa_json_num(o, "median_sharpe", NAN);
	nb->implied_trials = sa_json_num(o, "implied_trials", NAN);
	nb->neighbours = sa_json_num(o, "neighbours", NAN);
	nb->failed = sa_json_num(o, "failed", NAN);
	snprintf(nb->reason, sizeof nb->reason, "%s", sa_json_str(o, "reason", ""));
}

void vd_nb_json(cJSON *root, const struct vd_nb *nb, bool capped)
{
	cJSON *o = cJSON_AddObjectToObject(root, "neighbourhood");

	cJSON_AddBoolToObject(o, "measured", nb->measured);
	if (nb->peak || nb->plateau)
		cJSON_AddStringToObject(o, "shape", nb->peak ? "peak" : "plateau");
	else
		cJSON_AddNullToObject(o, "shape");
	sa_json_add_num(o, "keep", nb->keep, 6);
	sa_json_add_num(o, "keep_min", nb->keep_min, 6);
	sa_json_add_num(o, "implied_trials", nb->implied_trials, 6);
	cJSON_AddBoolToObject(o, "capped", capped);
}

char *vd_nb_sentence(const struct vd_nb *nb, bool capped, char *buf, size_t len)
{
	buf[0] = '\0';
	if (nb->peak)
		snprintf(buf, len, "Its edge sits on a peak of its parameters: moved 10 to 20 %% either way, "
			 "its %.0f neighbours keep at their median %.0f %% of its per-bar Sharpe ratio "
			 "(less than the %.0f %% a plateau keeps), the mark of a pick from a search; the "
			 "deflation counts it as a search of %.0f trials%s. ",
			 nb->neighbours, 100 * nb->keep, 100 * nb->keep_min, nb->implied_trials,
			 capped ? ", and it cannot be READY_FOR_MICRO_LIVE" : "");
	else if (nb->plateau)
		snprintf(buf, len, "Its parameters sit on a plateau: moved 10 to 20 %% either way, its "
			 "%.0f neighbours keep at their median %.0f %% of its per-bar Sharpe ratio. ",
			 nb->neighbours, 100 * nb->keep);
	return buf;
}
