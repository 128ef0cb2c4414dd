/* verdict_io.h - gathering the upstream stage files into verdict facts, and verdict.json itself. */
#ifndef SA_VERDICT_IO_H
#define SA_VERDICT_IO_H

#include <cjson/cJSON.h>

#include "stagefile.h"
#include "verdict_text.h"

struct vd_sealed;

/* How each upstream file was found, for the "inputs" record of verdict.json. */
struct vd_inputs {
	char config[VD_TEXT_MAX], inspect[VD_TEXT_MAX], run[VD_TEXT_MAX], events[VD_TEXT_MAX];
	char lookahead[VD_TEXT_MAX], variants[VD_TEXT_MAX], replay[VD_TEXT_MAX], stats[VD_TEXT_MAX];
	char robust[VD_TEXT_MAX];
};

/* Reads config.json, inspect.json, run.json, events.jsonl, lookahead.json, variants.json,
 * robustness.json,
 * replay.json and stats.json from dir into *f. Any of them may be missing, broken or "ok": false: that is
 * recorded in *in ("ok", "missing", or the reason) and the facts say "unknown". Never fails. */
void vd_load_dir(const char *dir, struct vd_facts *f, struct vd_inputs *in);

/* The first line of src into dst (len bytes); a line too long for it is cut after its last
 * whole word that fits and ends " [...]", so no sentence quoting it stops inside a word. */
void vd_first_line(char *dst, size_t len, const char *src);

/* Builds the verdict.json tree from the facts, the decision, the sealed gate (NULL: no sealed
 * bars were given) and the summary text (borrowed). summary_source names who wrote the
 * summary ("numbers"). Caller frees. */
cJSON *vd_to_json(const struct vd_facts *f, const struct vd_result *r, const struct vd_inputs *in,
		  const struct vd_sealed *sealed, const char *summary, const char *summary_source);

/* Prints the short human form of verdict.json, opened through the stage-file table, to fp (the
 * verdict, each gate, the vetoes, the summary). Returns 0, or -1 if it is not a verdict, or one
 * of its fields breaks the table (v->broken says which). */
int vd_print(struct sa_sf *v, FILE *fp);

#endif
