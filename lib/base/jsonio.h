/* jsonio.h - reading and writing the stage JSON files (cJSON), with caps and atomic writes. */
#ifndef SA_JSONIO_H
#define SA_JSONIO_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

/* Reads and parses a JSON file of at most cap bytes, rejecting trailing garbage. Returns a new
 * tree (caller frees with cJSON_Delete), or NULL with a reason in err. */
cJSON *sa_json_read(const char *path, size_t cap, char *err, size_t errlen);

/* Reads a stage file and reports whether it is usable: present, parseable, and "ok": true.
 * Returns the tree (caller frees) whether ok or not; *ok is set; on a missing or broken file
 * returns NULL and err says why. */
cJSON *sa_json_read_stage(const char *path, bool *ok, char *err, size_t errlen);

/* A new object {"stage": stage, "schema": schema}. Caller frees. Never NULL (aborts on OOM). */
cJSON *sa_json_stage(const char *stage, int schema);

/* Sets "ok": false and "reason": text on obj (replacing any earlier values). */
void sa_json_fail(cJSON *obj, const char *text);

/* Writes obj to path atomically, pretty-printed, ending in a newline. Numbers are printed by
 * cJSON; the caller rounds where reproducibility needs it. Returns 0, or -1 with the reason in
 * err. */
int sa_json_write(const char *path, const cJSON *obj, char *err, size_t errlen);

/* Writes {"stage", "schema", "ok": false, "reason": text} to path. Returns 0, or -1 with the
 * reason in err. */
int sa_json_write_fail(const char *path, const char *stage, int schema, const char *text,
		       char *err, size_t errlen);

/* Typed getters that never crash on a wrong type: they return def when the key is missing or
 * of another type. The string is borrowed from obj. */
double sa_json_num(const cJSON *obj, const char *key, double def);
const char *sa_json_str(const cJSON *obj, const char *key, const char *def);
bool sa_json_bool(const cJSON *obj, const char *key, bool def);

/* Adds a number rounded to `digits` significant digits, or null when x is not finite, so the
 * JSON never holds NaN or inf and printing is reproducible. Returns the added item. */
cJSON *sa_json_add_num(cJSON *obj, const char *key, double x, int digits);

#endif
