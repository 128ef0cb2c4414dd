/* lookahead_callbacks.c - whether the live replay answers a framework class's per-trade
 * callbacks, read from inspect.json through the stage-file table. */
#include "lookahead_core.h"
#include "stagefile.h"

bool la_live_wants_calls(const char *inspect_path)
{
	struct sa_sf ins;
	const cJSON *cb, *v;
	bool yes = false;

	if (!inspect_path || !sa_sf_open_path(&ins, inspect_path, SA_SF_INSPECT))
		return false;
	cb = sa_sf_arr_or_null(&ins, NULL, SA_FD_IN_CALLBACKS);
	/* inspect keeps only the callbacks the live replay answers (take_callbacks): one named is
	 * one to ask */
	cJSON_ArrayForEach(v, cb)
		yes |= cJSON_IsString(v);
	sa_sf_close(&ins);
	return yes;
}
