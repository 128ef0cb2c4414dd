/* config_table.c - the knob table's rows (config.h) and the parser of a knob's text. Needs only
 * libc: the knobs tool links it before any package is installed. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

const struct sa_knob sa_knobs[SA_K_COUNT] = {
#define SA_KNOB_ROW(id, mk, path, type, lo, hi, def, readers, help) \
	{ mk, path, type, lo, hi, def, readers, help },
	SA_KNOBS(SA_KNOB_ROW)
#undef SA_KNOB_ROW
};

const struct sa_knob *sa_knob_by_make(const char *name)
{
	for (size_t i = 0; i < SA_K_COUNT; i++)
		if (!strcmp(sa_knobs[i].make, name))
			return &sa_knobs[i];
	return NULL;
}

const char *sa_knob_choices(enum sa_knob_id k)
{
	return k == SA_K_MARKET ? "perp spot stock fx" : NULL;
}

/* Whether text is one of the space-separated words of list. */
static int one_of(const char *text, const char *list)
{
	size_t n = strlen(text);

	for (const char *w = list; *w; w += strcspn(w, " "), w += *w == ' ')
		if (n && !strncmp(w, text, n) && (w[n] == ' ' || !w[n]))
			return 1;
	return 0;
}

int sa_plain_number(const char *s)
{
	size_t i = 0;

	if (s[i] == '-' || s[i] == '+')
		i++;
	if (!(s[i] >= '0' && s[i] <= '9') && !(s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9'))
		return 0;
	return strspn(s + i, "0123456789.eE+-") == strlen(s + i) && !strpbrk(s + i, "xX");
}

int sa_knob_parse(enum sa_knob_id k, const char *text, double *num, char *err, size_t errlen)
{
	const struct sa_knob *r = &sa_knobs[k];
	char *end;
	double x;

	if (r->type == SA_KNOB_MAKE)
		return 0;
	if (r->type == SA_KNOB_STR) {
		size_t n = strlen(text);

		if (n < (size_t)r->lo || n > (size_t)r->hi) {
			snprintf(err, errlen, "%s '%s' should be text of %g to %g characters", r->make,
				 text, r->lo, r->hi);
			return -1;
		}
		if (sa_knob_choices(k) && n && !one_of(text, sa_knob_choices(k))) {
			snprintf(err, errlen, "%s '%s' should be one of: %s", r->make, text,
				 sa_knob_choices(k));
			return -1;
		}
		return 0;
	}
	if (!*text && !*r->def) {
		*num = NAN;  /* a number left unset: its reader says what stands in */
		return 0;
	}
	errno = 0;
	x = sa_plain_number(text) ? strtod(text, &end) : NAN;
	if (isnan(x) || *end || errno || !isfinite(x) || x < r->lo || x > r->hi ||
	    (r->type == SA_KNOB_INT && x != floor(x))) {
		snprintf(err, errlen, "%s '%s' should be %s from %.15g to %.15g", r->make, text,
			 r->type == SA_KNOB_INT ? "a whole number" : "a number", r->lo, r->hi);
		return -1;
	}
	*num = x;
	return 0;
}
