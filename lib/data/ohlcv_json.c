/* ohlcv_json.c - what the OHLCV loader detected, as fingerprint.json's data_format. */
#include <cjson/cJSON.h>

#include "config.h"
#include "ohlcv_json.h"
#include "timeutil.h"

static const char *delim_name(char d)
{
	return d == ';' ? ";" : d == '\t' ? "tab" : ",";
}

static const char *layout_name(int layout)
{
	static const char *const names[] = {
		[DA_LAYOUT_HEADER] = "header",
		[DA_LAYOUT_KLINES] = "headerless klines",
		[DA_LAYOUT_METATRADER] = "headerless MetaTrader rows",
		[DA_LAYOUT_FREQTRADE] = "freqtrade json",
		[DA_LAYOUT_FEATHER] = "freqtrade feather",
	};

	return (unsigned)layout < sizeof(names) / sizeof(names[0]) ? names[layout] : "unknown";
}

static void add_text_or_null(cJSON *o, const char *key, const char *text)
{
	if (text[0])
		cJSON_AddStringToObject(o, key, text);
	else
		cJSON_AddNullToObject(o, key);
}

static void add_columns(cJSON *o, const struct da_ohlcv_format *f)
{
	static const char *const keys[DA_BAR_FIELDS] = { "time", "open", "high", "low", "close",
							  "volume", "adj_close" };
	cJSON *cols = cJSON_AddObjectToObject(o, "columns");

	for (int k = 0; cols && k < DA_BAR_FIELDS; k++) {
		if (f->names[k][0])
			cJSON_AddStringToObject(cols, keys[k], f->names[k]);
		else
			cJSON_AddNullToObject(cols, keys[k]);
	}
	if (cols)
		add_text_or_null(cols, "time_of_day", f->clock_name);
}

cJSON *da_ohlcv_format_json(const struct da_ohlcv *s)
{
	const struct da_ohlcv_format *f = &s->fmt;
	cJSON *o = cJSON_CreateObject();
	char t[21];

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "layout", layout_name(f->layout));
	cJSON_AddNumberToObject(o, "header_rows", f->header_rows);
	cJSON_AddStringToObject(o, "delimiter", delim_name(f->delim));
	cJSON_AddBoolToObject(o, "gzip", f->gzip);
	cJSON_AddStringToObject(o, "time_form", sa_time_form_name((enum sa_time_form)f->time_form));
	cJSON_AddNumberToObject(o, "fields", f->columns);
	add_columns(o, f);
	cJSON_AddBoolToObject(o, "joined", f->joined);
	add_text_or_null(o, "volume_left", f->volume_left);
	add_text_or_null(o, "skipped_line", f->skipped);
	cJSON_AddBoolToObject(o, "reversed", f->reversed);
	cJSON_AddBoolToObject(o, "volume", f->volume);
	cJSON_AddBoolToObject(o, "adjusted", f->adjusted);
	cJSON_AddNumberToObject(o, "bars", (double)s->n);
	cJSON_AddStringToObject(o, "first", s->n ? sa_time_format(s->t[0], t) : "");
	cJSON_AddStringToObject(o, "last", s->n ? sa_time_format(s->t[s->n - 1], t) : "");
	cJSON_AddNumberToObject(o, "spacing_s", (double)f->spacing_s);
	cJSON_AddStringToObject(o, "bar", f->bar);
	cJSON_AddStringToObject(o, "calendar", f->sessions ? "weekday sessions" :
				f->fx_week ? "fx week" : "every day");
	cJSON_AddBoolToObject(o, "pandas_index", f->index_time);
	add_text_or_null(o, "perpetual", f->perpetual);
	cJSON_AddNumberToObject(o, "gaps", (double)f->gaps);
	cJSON_AddNumberToObject(o, "missing_bars", (double)f->missing_bars);
	cJSON_AddNumberToObject(o, "largest_gap_s", (double)f->largest_gap_s);
	return o;
}

int da_ohlcv_load_config(const char *path, const cJSON *cfg, struct da_ohlcv *s, char *err,
			 size_t errlen)
{
	struct da_ohlcv_opts opts = { 0 };
	long long adjusted = 0;

	if (cfg && sa_config_int(cfg, SA_K_ADJUSTED, &adjusted, err, errlen))
		return -1;
	opts.adjusted = adjusted == 1;
	return da_ohlcv_load_opts(path, &opts, s, err, errlen);
}
