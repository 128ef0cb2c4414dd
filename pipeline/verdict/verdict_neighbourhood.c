/* verdict_neighbourhood.c - the neighbourhood rule (verdict_neighbourhood.h). */
#include "verdict_neighbourhood.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsonio.h"
#include "stagefile.h"

void vd_nb_load(struct sa_sf *s, struct vd_nb *nb)
{
	const char *shape;

	memset(nb, 0, sizeof *nb);
	nb->keep = nb->keep_min = nb->centre = nb->median = NAN;
	nb->implied_trials = nb->neighbours = nb->failed = nb->span = nb->family = NAN;
	if (!sa_sf_obj_or_null(s, NULL, SA_FD_ST_NB))
		return;
	nb->measured = sa_sf_bool_or(s, NULL, SA_FD_ST_NB_MEASURED, false);
	shape = sa_sf_str_or(s, NULL, SA_FD_ST_NB_SHAPE, "");
	nb->peak = nb->measured && !strcmp(shape, "peak");
	nb->plateau = nb->measured && !strcmp(shape, "plateau");
	nb->keep = sa_sf_num_or(s, NULL, SA_FD_ST_NB_KEEP, NAN);
	nb->keep_min = sa_sf_num_or(s, NULL, SA_FD_ST_NB_KEEP_MIN, NAN);
	nb->centre = sa_sf_num_or(s, NULL, SA_FD_ST_NB_CENTRE, NAN);
	nb->median = sa_sf_num_or(s, NULL, SA_FD_ST_NB_MEDIAN, NAN);
	nb->implied_trials = sa_sf_num_or(s, NULL, SA_FD_ST_NB_IMPLIED, NAN);
	nb->neighbours = sa_sf_num_or(s, NULL, SA_FD_ST_NB_NEIGHBOURS, NAN);
	nb->span = sa_sf_num_or(s, NULL, SA_FD_ST_NB_SPAN, NAN);
	nb->family = sa_sf_num_or(s, NULL, SA_FD_ST_NB_FAMILY, NAN);
	nb->failed = sa_sf_num_or(s, NULL, SA_FD_ST_NB_FAILED, NAN);
	snprintf(nb->reason, sizeof nb->reason, "%s", sa_sf_str_or(s, NULL, SA_FD_ST_NB_REASON, ""));
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
	sa_json_add_num(o, "family_trials", nb->family, 6);
	cJSON_AddBoolToObject(o, "capped", capped);
}

/* The family's trials, when they are what the deflation counted. */
static void family_sentence(const struct vd_nb *nb, const char *trials_source, char *buf, size_t len)
{
	size_t at = strlen(buf);

	if (strcmp(trials_source, "neighbourhood_family") || !(nb->family > 1) || at >= len)
		return;
	snprintf(buf + at, len - at, "Its neighbours trade other bars as its parameters move: over a "
		 "search of a factor of %.0f a parameter, rules like it come in about %.0f independent "
		 "kinds, and the deflation counts them as %.0f trials, as a search of them would. ",
		 nb->span, nb->family, nb->family);
}

char *vd_nb_sentence(const struct vd_nb *nb, bool capped, const char *trials_source, char *buf,
		     size_t len)
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
	family_sentence(nb, trials_source, buf, len);
	return buf;
}
