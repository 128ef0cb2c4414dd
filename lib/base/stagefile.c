/* stagefile.c - the stage-file table's rows (stagefile.h) and the reads checked against them. */
#include "stagefile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"

const struct sa_sfile_row sa_sfiles[SA_SF_COUNT] = {
#define SA_SF_ROW(id, name, writer, schema, readers, help) { name, writer, schema, readers, help },
	SA_STAGE_FILES(SA_SF_ROW)
#undef SA_SF_ROW
};

const struct sa_field_row sa_fields[SA_FD_COUNT] = {
#define SA_FIELD_ROW(id, file, key, type, absent, unit, help) \
	{ SA_SF_##file, key, type, absent, unit, help },
	SA_FIELDS(SA_FIELD_ROW)
#undef SA_FIELD_ROW
};

const char *sa_ftype_name(enum sa_ftype t)
{
	static const char *const names[] = {
		[SA_FT_NUM] = "number", [SA_FT_BOOL] = "boolean", [SA_FT_STR] = "string",
		[SA_FT_OBJ] = "object", [SA_FT_ARR] = "array",
	};

	return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "unknown";
}

cJSON *sa_sf_new(enum sa_sfile_id id)
{
	return sa_json_stage(sa_sfiles[id].writer, sa_sfiles[id].schema);
}

/* Records the first break of the table. */
__attribute__((format(printf, 2, 3))) static void broke(struct sa_sf *f, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	if (f->broken[0])
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(f->broken, sizeof f->broken, "%s: %s", sa_sfiles[f->id].name, what);
}

/* The file's own stage, schema and ok, against the table. */
static void check_head(struct sa_sf *f)
{
	const struct sa_sfile_row *row = &sa_sfiles[f->id];
	const cJSON *stage = cJSON_GetObjectItemCaseSensitive(f->root, "stage");
	const cJSON *schema = cJSON_GetObjectItemCaseSensitive(f->root, "schema");
	const cJSON *ok = cJSON_GetObjectItemCaseSensitive(f->root, "ok");

	if (!cJSON_IsString(stage) || strcmp(stage->valuestring, row->writer) != 0)
		broke(f, "the field \"stage\" is not \"%s\"", row->writer);
	else if (!cJSON_IsNumber(schema))
		broke(f, "the field \"schema\" is %s", schema ? "not a number" : "missing");
	else if (schema->valuedouble != row->schema)
		broke(f, "schema %g, where this reader knows schema %d", schema->valuedouble, row->schema);
	else if (!cJSON_IsBool(ok))
		broke(f, "the field \"ok\" is %s", ok ? "not a boolean" : "missing");
	f->ok = !f->broken[0] && cJSON_IsTrue(ok);
	if (f->broken[0])
		snprintf(f->status, sizeof f->status, "%s", f->broken);
	else if (!f->ok)
		snprintf(f->status, sizeof f->status, "%s",
			 sa_json_str(f->root, "reason", "the stage reported a failure"));
	else
		snprintf(f->status, sizeof f->status, "ok");
}

bool sa_sf_open_path(struct sa_sf *f, const char *path, enum sa_sfile_id id)
{
	char err[sizeof f->status];

	memset(f, 0, sizeof *f);
	f->id = id;
	if (access(path, F_OK) != 0) {
		snprintf(f->status, sizeof f->status, "'%s' does not exist", path);
		return false;
	}
	f->root = sa_json_read(path, SA_JSON_CAP, err, sizeof err);
	if (!f->root || !cJSON_IsObject(f->root)) {
		broke(f, "%s", f->root ? "not a JSON object" : err);
		snprintf(f->status, sizeof f->status, "%s", f->broken);
		cJSON_Delete(f->root);
		f->root = NULL;
		return false;
	}
	check_head(f);
	return f->ok;
}

bool sa_sf_open(struct sa_sf *f, const char *dir, enum sa_sfile_id id)
{
	char path[4096];

	snprintf(path, sizeof path, "%s/%s", dir, sa_sfiles[id].name);
	return sa_sf_open_path(f, path, id);
}

void sa_sf_line(struct sa_sf *f, enum sa_sfile_id id, const char *line)
{
	memset(f, 0, sizeof *f);
	f->id = id;
	f->root = cJSON_Parse(line);
	f->ok = cJSON_IsObject(f->root);
	snprintf(f->status, sizeof f->status, "%s", f->ok ? "ok" : "not a JSON object");
	if (!f->ok) {
		cJSON_Delete(f->root);
		f->root = NULL;
	}
}

bool sa_sf_view(struct sa_sf *f, const cJSON *root, enum sa_sfile_id id)
{
	memset(f, 0, sizeof *f);
	f->id = id;
	f->borrowed = true;
	if (!root) {
		snprintf(f->status, sizeof f->status, "missing");
		return false;
	}
	if (!cJSON_IsObject(root)) {
		broke(f, "not a JSON object");
		snprintf(f->status, sizeof f->status, "%s", f->broken);
		return false;
	}
	f->root = (cJSON *)root; /* read only: no read through the table writes */
	check_head(f);
	return f->ok;
}

cJSON *sa_sf_keep(struct sa_sf *f, const char *path, enum sa_sfile_id id)
{
	sa_sf_open_path(f, path, id);
	if (!sa_sf_present(f) || f->broken[0]) {
		sa_sf_close(f);
		return NULL;
	}
	f->borrowed = true; /* the caller's from here */
	return f->root;
}

void sa_sf_close(struct sa_sf *f)
{
	if (!f->borrowed)
		cJSON_Delete(f->root);
	f->root = NULL;
}

bool sa_sf_present(const struct sa_sf *f)
{
	return f->root != NULL;
}

/* Walks the dotted path key from base. Returns the field, or NULL with *parent false when a
 * step before the last is not an object there (that step's own row speaks for it). */
static const cJSON *walk(const cJSON *base, const char *key, bool *parent)
{
	char step[128];
	const cJSON *at = base;

	*parent = true;
	while (*key) {
		size_t n = strcspn(key, ".");

		if (!cJSON_IsObject(at) || n >= sizeof step) {
			*parent = false;
			return NULL;
		}
		memcpy(step, key, n);
		step[n] = '\0';
		at = cJSON_GetObjectItemCaseSensitive(at, step);
		key += n + (key[n] == '.');
	}
	return at;
}

static bool type_is(const cJSON *it, enum sa_ftype t)
{
	switch (t) {
	case SA_FT_NUM: return cJSON_IsNumber(it);
	case SA_FT_BOOL: return cJSON_IsBool(it);
	case SA_FT_STR: return cJSON_IsString(it);
	case SA_FT_OBJ: return cJSON_IsObject(it);
	case SA_FT_ARR: return cJSON_IsArray(it);
	}
	return false;
}

/* The field k as the table allows it: 1 and *out when there, 0 when not and it need not be (or
 * null where allowed: *out NULL), -1 on a break. */
static int field(struct sa_sf *f, const cJSON *base, enum sa_field_id k, enum sa_ftype want,
		 const cJSON **out)
{
	const struct sa_field_row *row = &sa_fields[k];
	const char *elem = strstr(row->key, "[].");
	const cJSON *it;
	bool parent;

	*out = NULL;
	if (row->file != f->id || row->type != want) {
		broke(f, "the field \"%s\" of %s read as a %s, where the table says a %s", row->key,
		      sa_sfiles[row->file].name, sa_ftype_name(want), sa_ftype_name(row->type));
		return -1;
	}
	if (!f->root)
		return 0;
	if (elem) {
		/* the part after the last "[]." is read from the element */
		for (const char *p = elem; (p = strstr(p + 3, "[].")) != NULL;)
			elem = p;
		it = walk(base, elem + 3, &parent);
	} else {
		it = walk(base ? base : f->root, row->key, &parent);
	}
	if (!parent)
		return 0;
	if (type_is(it, row->type)) {
		*out = it;
		return 1;
	}
	if (!f->ok && !it)
		return 0; /* a failed stage's file holds its reason, not the table */
	if (!it && row->absent == SA_FA_MAY)
		return 0;
	if (cJSON_IsNull(it) && row->absent != SA_FA_NEVER)
		return 0;
	if (!it)
		broke(f, "the field \"%s\" is missing", row->key);
	else
		broke(f, "the field \"%s\" is not %s %s%s", row->key,
		      row->type == SA_FT_ARR || row->type == SA_FT_OBJ ? "an" : "a", sa_ftype_name(row->type),
		      row->absent != SA_FA_NEVER ? " or null" : "");
	return -1;
}

int sa_sf_num(struct sa_sf *f, const cJSON *base, enum sa_field_id k, double *out)
{
	const cJSON *it;
	int rc = field(f, base, k, SA_FT_NUM, &it);

	if (rc == 1)
		*out = it->valuedouble;
	return rc;
}

int sa_sf_bool(struct sa_sf *f, const cJSON *base, enum sa_field_id k, bool *out)
{
	const cJSON *it;
	int rc = field(f, base, k, SA_FT_BOOL, &it);

	if (rc == 1)
		*out = cJSON_IsTrue(it);
	return rc;
}

int sa_sf_str(struct sa_sf *f, const cJSON *base, enum sa_field_id k, const char **out)
{
	const cJSON *it;
	int rc = field(f, base, k, SA_FT_STR, &it);

	if (rc == 1)
		*out = it->valuestring;
	return rc;
}

int sa_sf_obj(struct sa_sf *f, const cJSON *base, enum sa_field_id k, const cJSON **out)
{
	const cJSON *it;
	int rc = field(f, base, k, SA_FT_OBJ, &it);

	if (rc == 1)
		*out = it;
	return rc;
}

int sa_sf_arr(struct sa_sf *f, const cJSON *base, enum sa_field_id k, const cJSON **out)
{
	const cJSON *it;
	int rc = field(f, base, k, SA_FT_ARR, &it);

	if (rc == 1)
		*out = it;
	return rc;
}

int sa_sf_item(struct sa_sf *f, const cJSON *base, enum sa_field_id k, const cJSON **out)
{
	const cJSON *it;
	int rc = field(f, base, k, sa_fields[k].type, &it);

	if (rc == 1)
		*out = it;
	return rc;
}

double sa_sf_num_or(struct sa_sf *f, const cJSON *base, enum sa_field_id k, double def)
{
	double x = def;

	sa_sf_num(f, base, k, &x);
	return x;
}

bool sa_sf_bool_or(struct sa_sf *f, const cJSON *base, enum sa_field_id k, bool def)
{
	bool x = def;

	sa_sf_bool(f, base, k, &x);
	return x;
}

const char *sa_sf_str_or(struct sa_sf *f, const cJSON *base, enum sa_field_id k, const char *def)
{
	const char *x = def;

	sa_sf_str(f, base, k, &x);
	return x;
}

const cJSON *sa_sf_obj_or_null(struct sa_sf *f, const cJSON *base, enum sa_field_id k)
{
	const cJSON *x = NULL;

	sa_sf_obj(f, base, k, &x);
	return x;
}

const cJSON *sa_sf_arr_or_null(struct sa_sf *f, const cJSON *base, enum sa_field_id k)
{
	const cJSON *x = NULL;

	sa_sf_arr(f, base, k, &x);
	return x;
}
