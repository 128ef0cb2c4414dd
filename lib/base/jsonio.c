/* jsonio.c - stage JSON files: capped reads, strict parses, atomic pretty writes. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"

cJSON *sa_json_read(const char *path, size_t cap, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len;
	const char *end = NULL;
	cJSON *root = NULL;
	enum sa_read_status st;

	st = sa_read_file(path, cap, &buf, &len);
	if (st != SA_READ_OK) {
		sa_read_strerror(st, path, cap, err, errlen);
		goto out;
	}
	if (strlen(buf) != len) {
		sa_fmt(err, errlen, "'%s' holds a NUL byte", path);
		goto out;
	}
	/* require_null_terminated: trailing garbage after the value is an error, not ignored */
	root = cJSON_ParseWithOpts(buf, &end, 1);
	if (!root) {
		long at = end ? (long)(end - buf) : -1;

		sa_fmt(err, errlen, "'%s' is not valid JSON (near byte %ld)", path, at);
	}
out:
	free(buf);
	return root;
}

cJSON *sa_json_read_stage(const char *path, bool *ok, char *err, size_t errlen)
{
	cJSON *root = sa_json_read(path, SA_JSON_CAP, err, errlen);

	*ok = false;
	if (!root)
		return NULL;
	if (!cJSON_IsObject(root)) {
		sa_fmt(err, errlen, "'%s' is not a JSON object", path);
		cJSON_Delete(root);
		return NULL;
	}
	*ok = sa_json_bool(root, "ok", false);
	if (!*ok)
		sa_fmt(err, errlen, "%s", sa_json_str(root, "reason", "the stage reported a failure"));
	return root;
}

static void *must(void *p)
{
	if (!p)
		abort();
	return p;
}

cJSON *sa_json_stage(const char *stage, int schema)
{
	cJSON *o = must(cJSON_CreateObject());

	cJSON_AddStringToObject(o, "stage", stage);
	cJSON_AddNumberToObject(o, "schema", schema);
	return o;
}

void sa_json_fail(cJSON *obj, const char *text)
{
	cJSON_DeleteItemFromObjectCaseSensitive(obj, "ok");
	cJSON_DeleteItemFromObjectCaseSensitive(obj, "reason");
	cJSON_AddBoolToObject(obj, "ok", 0);
	cJSON_AddStringToObject(obj, "reason", text);
}

int sa_json_write(const char *path, const cJSON *obj, char *err, size_t errlen)
{
	char *text = cJSON_Print(obj);
	struct sa_atomic a;
	int rc = -1;

	if (!text) {
		sa_fmt(err, errlen, "out of memory printing '%s'", path);
		return -1;
	}
	if (sa_atomic_open(&a, path, err, errlen))
		goto out;
	if (fputs(text, a.fp) == EOF || fputc('\n', a.fp) == EOF) {
		sa_fmt(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		sa_atomic_abort(&a);
		goto out;
	}
	rc = sa_atomic_commit(&a, err, errlen);
out:
	cJSON_free(text);
	return rc;
}

int sa_json_write_fail(const char *path, const char *stage, int schema, const char *text,
		       char *err, size_t errlen)
{
	cJSON *o = sa_json_stage(stage, schema);
	int rc;

	sa_json_fail(o, text);
	rc = sa_json_write(path, o, err, errlen);
	cJSON_Delete(o);
	return rc;
}

double sa_json_num(const cJSON *obj, const char *key, double def)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsNumber(it) ? it->valuedouble : def;
}

const char *sa_json_str(const cJSON *obj, const char *key, const char *def)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(it) && it->valuestring ? it->valuestring : def;
}

bool sa_json_bool(const cJSON *obj, const char *key, bool def)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsBool(it) ? cJSON_IsTrue(it) : def;
}

cJSON *sa_json_add_num(cJSON *obj, const char *key, double x, int digits)
{
	char buf[64];

	if (!isfinite(x))
		return cJSON_AddNullToObject(obj, key);
	/* Round through text so the value printed is the same on every machine. */
	snprintf(buf, sizeof(buf), "%.*g", digits, x);
	x = strtod(buf, NULL);
	if (x == 0)
		x = 0; /* no "-0" */
	return cJSON_AddNumberToObject(obj, key, x);
}
