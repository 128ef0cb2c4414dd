/* config_read.c - reading knobs from config.json through the knob table (config.h), so every stage
 * checks a value against the same row that wrote it. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "msg.h"

/* The item at row r's path, or NULL when absent (a missing group counts as absent). */
static const cJSON *knob_item(const cJSON *cfg, const struct sa_knob *r)
{
	const char *dot = strchr(r->path, '.');
	char group[64];

	if (!dot)
		return cJSON_GetObjectItemCaseSensitive(cfg, r->path);
	snprintf(group, sizeof group, "%.*s", (int)(dot - r->path), r->path);
	return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cfg, group),
						dot + 1);
}

/* Which program read which knob, one "prog KNOB" line appended to the file SA_KNOB_TRACE names
 * (when set): how tests/e2e/17-knob-readers.sh holds the table's readers to the code. */
static void trace(const cJSON *cfg, const struct sa_knob *r)
{
	const char *path = cfg ? getenv("SA_KNOB_TRACE") : NULL;
	char line[128];
	int fd, n;

	if (!path || !*path)
		return;
	n = snprintf(line, sizeof line, "%s %s\n", sa_prog(), r->make);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (n > 0 && (size_t)n < sizeof line)
		(void)!write(fd, line, (size_t)n);
	close(fd);
}

int sa_config_num(const cJSON *cfg, enum sa_knob_id k, double *out, char *err, size_t errlen)
{
	const struct sa_knob *r = &sa_knobs[k];
	const cJSON *it = knob_item(cfg, r);

	trace(cfg, r);
	double x;

	if (!it || cJSON_IsNull(it))
		return sa_knob_parse(k, r->def, out, err, errlen);
	x = cJSON_IsNumber(it) ? it->valuedouble : NAN;
	if (!isfinite(x) || x < r->lo || x > r->hi || (r->type == SA_KNOB_INT && x != floor(x))) {
		snprintf(err, errlen, "config.json: %s must be %s from %.15g to %.15g (%s)", r->path,
			 r->type == SA_KNOB_INT ? "a whole number" : "a number", r->lo, r->hi,
			 r->make);
		return -1;
	}
	*out = x;
	return 0;
}

int sa_config_int(const cJSON *cfg, enum sa_knob_id k, long long *out, char *err, size_t errlen)
{
	double x;

	if (sa_config_num(cfg, k, &x, err, errlen) < 0)
		return -1;
	*out = (long long)x;
	return 0;
}

int sa_config_str(const cJSON *cfg, enum sa_knob_id k, const char **out, char *err,
		  size_t errlen)
{
	const struct sa_knob *r = &sa_knobs[k];
	const cJSON *it = knob_item(cfg, r);
	size_t n;

	trace(cfg, r);
	if (!it || cJSON_IsNull(it)) {
		*out = r->def;
		return 0;
	}
	n = cJSON_IsString(it) ? strlen(it->valuestring) : (size_t)-1;
	if (n == (size_t)-1 || n < (size_t)r->lo || n > (size_t)r->hi) {
		snprintf(err, errlen, "config.json: %s must be text of %g to %g characters (%s)",
			 r->path, r->lo, r->hi, r->make);
		return -1;
	}
	*out = it->valuestring;
	return 0;
}
