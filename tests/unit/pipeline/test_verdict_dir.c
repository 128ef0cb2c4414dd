/* test_verdict_dir.c - the verdict stage over the stage files of a real directory: an empty one,
 * a killed run with its events, the kinds of refusal summed over the stages, the look-ahead's
 * findings and refusals, the live replay's, and the declared variants. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "verdict_io.h"
#include "verdict_rules.h"
#include "verdict_text.h"

#define assert_near_v(a, b) assert_true(fabs((a) - (b)) < 1e-12)

/* Writes text to dir/name. */
static void put(const char *dir, const char *name, const char *text)
{
	char path[512], err[1024];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (sa_write_file(path, text, strlen(text), err, sizeof err) != 0)
		fail_msg("%s", err);
}

/* Each stage file as its stage writes it when it has nothing to say: every field of the
 * stage-file table the verdict reads, at the value that says "none" or "unknown". A test writes
 * only what it is about (put_full merges it in, object by object). */
static const struct {
	const char *name, *json;
} bases[] = {
	{ "run.json", "{\"stage\":\"sandbox\",\"schema\":1,\"ok\":true,\"status\":\"ok\",\"error\":null,"
		      "\"blocked_actions\":0,\"refusals\":[]}" },
	{ "lookahead.json", "{\"stage\":\"lookahead\",\"schema\":1,\"ok\":true,\"mismatches\":[],"
			    "\"mismatch_count\":0,\"blocked_actions\":0,\"refusals\":[],\"points_checked\":0,"
			    "\"points_run\":0,\"failed_count\":0,\"complete\":false,\"stopped\":null,"
			    "\"explanation\":null}" },
	{ "replay.json", "{\"stage\":\"replay\",\"schema\":1,\"ok\":true,\"mode\":\"signals\",\"bars\":0,"
			 "\"trusted_returns\":false}" },
	{ "variants.json", "{\"stage\":\"variants\",\"schema\":1,\"ok\":true,\"complete\":false,"
			   "\"blocked_actions\":0,\"refusals\":[]}" },
	{ "inspect.json", "{\"stage\":\"inspect\",\"schema\":1,\"ok\":true,\"strategy\":{\"present\":false},"
			  "\"tradelog\":{\"present\":false}}" },
	{ "stats.json", "{\"stage\":\"stats\",\"schema\":1,\"ok\":true,\"trades\":0,\"trials\":1,"
			"\"trials_source\":\"\",\"sr_variance_source\":\"\",\"mean_net_return\":null,"
			"\"net_return\":null,\"sharpe\":null,\"psr\":null,\"dsr\":null,\"sr0\":null,"
			"\"psr_iid\":null,\"dsr_iid\":null,\"min_trl\":null,\"max_drawdown\":null,"
			"\"ruined\":false,\"ruin_time\":null,\"autocorrelation\":null,"
			"\"effective_trades\":null,\"benchmark_relative\":{\"alpha_annualised\":null,"
			"\"alpha_t\":null,\"beta\":null,\"beta_t\":null,\"excess_return\":null},"
			"\"benchmark_relative_reason\":null,\"concentration\":{\"removed\":null,"
			"\"mean_net_return_without\":null,\"best_5pct_share\":null},"
			"\"variants\":{\"declared\":false,\"ran\":0},\"pbo\":null,\"pbo_reason\":null,"
			"\"declared_search\":null}" },
};

/* Merges the members of patch into base, object into object; anything else replaces. */
static void merge(cJSON *base, const cJSON *patch)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, patch) {
		cJSON *b = cJSON_GetObjectItemCaseSensitive(base, p->string);

		if (cJSON_IsObject(b) && cJSON_IsObject(p)) {
			merge(b, p);
			continue;
		}
		cJSON_DeleteItemFromObjectCaseSensitive(base, p->string);
		cJSON_AddItemToObject(base, p->string, cJSON_Duplicate(p, 1));
	}
}

/* Writes dir/name: the stage's file with nothing to say (bases[]), text merged in. */
static void put_full(const char *dir, const char *name, const char *text)
{
	cJSON *patch = cJSON_Parse(text), *base = NULL;
	char *out;

	assert_non_null(patch);
	for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++)
		if (!strcmp(bases[i].name, name))
			base = cJSON_Parse(bases[i].json);
	assert_non_null(base);
	merge(base, patch);
	out = cJSON_PrintUnformatted(base);
	put(dir, name, out);
	cJSON_free(out);
	cJSON_Delete(base);
	cJSON_Delete(patch);
}

static char *tmpdir(void)
{
	static char dir[64];

	strcpy(dir, "/tmp/test_verdict.XXXXXX");
	assert_non_null(mkdtemp(dir));
	return dir;
}

static void rmdir_all(const char *dir)
{
	static const char *const names[] = { "config.json", "inspect.json", "run.json",
					     "events.jsonl", "lookahead.json", "variants.json", "replay.json",
					     "stats.json" };
	char path[512];

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* A run's error line too long to quote whole is cut after a whole word and marked, never inside
 * a word ("the parameter classes ."); a short one is quoted as it is, up to its first newline. */
static void test_error_line_cut_at_a_word(void **state)
{
	const char *long_err = "line 3: ImportError: cannot import name 'DecimalParameter' from "
		"'freqtrade.strategy': the shim holds IStrategy and its parameter classes, as far as an "
		"audit runs them, and not this one";
	char buf[160];

	(void)state;
	vd_first_line(buf, sizeof buf, long_err);
	assert_true(strlen(buf) < sizeof buf);
	assert_string_equal(buf + strlen(buf) - 6, " [...]");
	assert_int_equal(strncmp(buf, long_err, strlen(buf) - 6), 0);
	assert_true(long_err[strlen(buf) - 6] == ' ' || long_err[strlen(buf) - 6] == ',');
	vd_first_line(buf, sizeof buf, "line 1: NameError: name 'x' is not defined\nTraceback");
	assert_string_equal(buf, "line 1: NameError: name 'x' is not defined");
	vd_first_line(buf, sizeof buf, NULL);
	assert_string_equal(buf, "");
}

static void test_empty_dir_still_decides(void **state)
{
	char *dir = tmpdir();
	struct vd_facts f;
	struct vd_inputs in;
	struct vd_result r;
	cJSON *v;

	(void)state;
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	/* no replay: nothing was judged */
	assert_int_equal(r.verdict, VD_INCOMPLETE);
	assert_false(f.num.stats_ok);
	/* no statistics, no trials: the stats stage decides them, and it did not run */
	assert_int_equal(f.trials, 0);
	assert_non_null(strstr(in.stats, "stats.json"));
	v = vd_to_json(&f, &r, &in, NULL, "", "numbers");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(v, "trials")));
	cJSON_Delete(v);
	rmdir_all(dir);
}

/* Every kind of refusal is named with its count, summed over the stages: a flood of one kind
 * (here 300 forged records) does not hide the one real refusal of another. */
static void test_refusal_kinds_named(void **state)
{
	char *dir = tmpdir();
	struct vd_facts f;
	struct vd_inputs in;
	struct vd_result r;
	char buf[4096];

	(void)state;
	put(dir, "config.json", "{\"stage\":\"config\",\"schema\":1,\"ok\":true,\"trials\":1}");
	put_full(dir, "run.json", "{\"stage\":\"sandbox\",\"schema\":1,\"ok\":true,\"status\":\"ok\","
			     "\"blocked_actions\":301,\"refusals\":["
			     "{\"rule\":\"the event channel carries sandbox records only\",\"count\":300,"
			     "\"first\":{\"action\":\"forged_event\",\"detail\":\"x\"}},"
			     "{\"rule\":\"no network\",\"count\":1,\"first\":{\"action\":\"socket.__new__\"}}]}");
	put_full(dir, "lookahead.json", "{\"stage\":\"lookahead\",\"schema\":1,\"ok\":true,\"blocked_actions\":2,"
				   "\"refusals\":[{\"rule\":\"no network\",\"count\":2,"
				   "\"first\":{\"action\":\"socket.connect\"}}]}");
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.verdict, VD_REJECTED_UNSAFE);
	assert_int_equal(f.num.blocked_actions, 303);
	assert_int_equal(f.n_kinds, 2);
	assert_int_equal(f.kinds[1].count, 3);
	vd_veto_reason(&f, &r, VD_REJECTED_UNSAFE, buf, sizeof buf);
	assert_non_null(strstr(buf, "300 by rule 'the event channel carries sandbox records only' (first: forged_event)"));
	assert_non_null(strstr(buf, "3 by rule 'no network' (first: socket.__new__)"));
	rmdir_all(dir);
}

static void test_dir_with_killed_run_and_events(void **state)
{
	char *dir = tmpdir();
	struct vd_facts f;
	struct vd_inputs in;
	struct vd_result r;
	char buf[4096];
	cJSON *v;

	(void)state;
	put(dir, "config.json", "{\"stage\":\"config\",\"schema\":1,\"ok\":true,\"trials\":1,"
				"\"gates\":{\"min_trades\":100,\"min_psr\":0.95,\"min_dsr\":0.95,\"max_dd\":0.25}}");
	put_full(dir, "run.json", "{\"stage\":\"sandbox\",\"schema\":1,\"ok\":false,\"reason\":\"killed\","
			     "\"status\":\"killed_wall_clock\",\"blocked_actions\":2}");
	put(dir, "events.jsonl", "{\"seq\":1,\"action\":\"os.system\",\"rule\":\"no-spawn\"}\n"
				 "not json at all\n{\"seq\":3,\"action\":\"socket.connect\",\"rule\":\"no-net\"}\n\n");
	put(dir, "stats.json", "{\"stage\":\"stats\",\"schema\":1,\"ok\":false,\"reason\":\"no trades to measure\"}");
	put(dir, "lookahead.json", "{broken");
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.verdict, VD_REJECTED_UNSAFE);
	assert_int_equal(f.num.blocked_actions, 3);
	assert_true(f.num.killed);
	assert_string_equal(f.first_action, "os.system");
	assert_string_equal(in.stats, "no trades to measure");
	assert_string_not_equal(in.lookahead, "ok");
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "refused 3 actions (first: os.system, by rule no-spawn)"));
	assert_non_null(strstr(buf, "killed_wall_clock"));
	v = vd_to_json(&f, &r, &in, NULL, buf, "numbers");
	assert_string_equal(sa_json_str(v, "verdict", ""), "REJECTED_UNSAFE");
	assert_string_equal(sa_json_str(v, "gate_verdict", ""), "NOT_READY");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v, "vetoes")), 1);
	/* no variants declared: every gate but the overfitting one */
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v, "gates")), VD_NGATES - 1);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(v, "gates"), 2), "value")));
	cJSON_Delete(v);
	rmdir_all(dir);
}

static void test_dir_lookahead_from_files(void **state)
{
	char *dir = tmpdir();
	struct vd_facts f;
	struct vd_inputs in;
	struct vd_result r;

	(void)state;
	/* config.json's TRIALS is the stats stage's input: the verdict takes stats.json's count */
	put(dir, "config.json", "{\"stage\":\"config\",\"schema\":1,\"trials\":80,"
				"\"gates\":{\"min_trades\":100,\"min_psr\":0.95,\"min_dsr\":0.95,\"max_dd\":0.25}}");
	put_full(dir, "run.json", "{\"stage\":\"sandbox\",\"schema\":1,\"ok\":true,\"status\":\"ok\",\"blocked_actions\":0}");
	put(dir, "events.jsonl", "");
	put_full(dir, "lookahead.json", "{\"stage\":\"lookahead\",\"schema\":1,\"ok\":true,\"clean\":false,"
				   "\"points_checked\":900,\"mismatch_count\":412,\"mismatches\":[{\"point\":17,"
				   "\"bar\":16,\"time\":\"2024-01-01T16:00:00Z\",\"full\":1,\"truncated\":0}]}");
	put_full(dir, "stats.json", "{\"stage\":\"stats\",\"schema\":1,\"ok\":true,\"benchmark_relative\":{\"alpha_annualised\":0.2,\"alpha_t\":4,\"beta\":0.1,\"beta_t\":1},"
		"\"trades\":1065,\"trials\":50,"
			       "\"mean_net_return\":0.0013,\"sharpe\":1.5,\"psr\":1,\"dsr\":1,\"sr0\":0.13,"
			       "\"min_trl\":6,\"net_return\":3.0,\"max_drawdown\":0.01,\"concentration\":{\"removed\":54,\"mean_net_return_without\":0.001}}");
	put_full(dir, "replay.json", "{\"stage\":\"replay\",\"schema\":1,\"ok\":true,\"mode\":\"signals\"}");
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.verdict, VD_REJECTED_LOOKAHEAD);
	assert_int_equal(r.gate_verdict, VD_READY_FOR_MICRO_LIVE);
	assert_int_equal(f.trials, 50);
	assert_int_equal(f.first_mismatch_bar, 16);
	assert_int_equal(f.num.blocked_actions, 0);
	rmdir_all(dir);
}

/* A strategy that behaves on the full history and reaches out only when shown less: the
 * refusals exist only in lookahead.json, and they must veto all the same. */
static void test_dir_lookahead_refusals_veto(void **state)
{
	char *dir = tmpdir();
	struct vd_facts f;
	struct vd_inputs in;
	struct vd_result r;
	char why[512];

	(void)state;
	put(dir, "config.json", "{\"stage\":\"config\",\"schema\":1,\"trials\":1}");
	put_full(dir, "run.json", "{\"stage\":\"sandbox\",\"schema\":1,\"ok\":true,\"status\":\"ok\",\"blocked_actions\":0}");
	put(dir, "events.jsonl", "");
	put_full(dir, "lookahead.json", "{\"stage\":\"lookahead\",\"schema\":1,\"ok\":true,\"clean\":true,"
				   "\"points_checked\":132,\"mismatch_count\":0,\"mismatches\":[],"
				   "\"blocked_actions\":123}");
	put_full(dir, "stats.json", "{\"stage\":\"stats\",\"schema\":1,\"ok\":true,\"benchmark_relative\":{\"alpha_annualised\":0.2,\"alpha_t\":4,\"beta\":0.1,\"beta_t\":1},"
		"\"trades\":1065,\"trials\":1,"
			       "\"mean_net_return\":0.0013,\"sharpe\":1.5,\"psr\":1,\"dsr\":1,\"sr0\":0,"
			       "\"min_trl\":6,\"net_return\":3.0,\"max_drawdown\":0.01,\"concentration\":{\"removed\":54,\"mean_net_return_without\":0.001}}");
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.gate_verdict, VD_READY_FOR_MICRO_LIVE);
	assert_int_equal(r.verdict, VD_REJECTED_UNSAFE);
	assert_int_equal(f.num.blocked_actions, 123);
	vd_veto_reason(&f, &r, VD_REJECTED_UNSAFE, why, sizeof why);
	assert_non_null(strstr(why, "123 in the look-ahead re-runs"));
	rmdir_all(dir);
}

/* Declared variants: trials and PBO come from stats.json, the overfitting gate joins what
 * READY and WATCH need, and refusals in the variant runs veto the upload. */
static void test_dir_variants(void **state)
{
	static const char stats[] =
		"{\"stage\":\"stats\",\"schema\":1,\"ok\":true,\"benchmark_relative\":{\"alpha_annualised\":0.2,\"alpha_t\":4,\"beta\":0.1,\"beta_t\":1},"
		"\"trades\":1065,\"trials\":40,"
		"\"trials_source\":\"variants\",\"sr_variance_source\":\"variants\","
		"\"mean_net_return\":0.0013,\"sharpe\":1.5,\"psr\":1,\"dsr\":1,\"sr0\":0.1,"
		"\"min_trl\":6,\"net_return\":3.0,\"max_drawdown\":0.01,\"concentration\":{\"removed\":54,\"mean_net_return_without\":0.001},"
		"\"variants\":{\"declared\":true,\"count\":40,\"ran\":40},"
		"\"pbo\":{\"value\":%s,\"blocks\":16,\"combinations\":12870}}";
	char *dir = tmpdir(), buf[4096], why[512];
	struct vd_facts f;
	struct vd_inputs in;
	struct vd_result r;
	cJSON *v;

	(void)state;
	put(dir, "config.json", "{\"stage\":\"config\",\"schema\":1,\"trials\":3}");
	put_full(dir, "run.json", "{\"stage\":\"sandbox\",\"schema\":1,\"ok\":true,\"status\":\"ok\",\"blocked_actions\":0}");
	put(dir, "events.jsonl", "");
	put_full(dir, "replay.json", "{\"stage\":\"replay\",\"schema\":1,\"ok\":true,\"mode\":\"signals\"}");
	put_full(dir, "variants.json", "{\"stage\":\"variants\",\"schema\":1,\"ok\":true,\"declared\":true,"
				  "\"count\":40,\"ran\":40,\"blocked_actions\":0,\"complete\":true}");
	put_full(dir, "lookahead.json", "{\"stage\":\"lookahead\",\"schema\":1,\"ok\":true,\"clean\":true,"
				   "\"complete\":true,\"points_checked\":200,\"points_run\":200}");
	snprintf(buf, sizeof buf, stats, "0.7");
	put_full(dir, "stats.json", buf);
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(f.trials, 40);
	assert_int_equal(r.ngates, VD_NGATES);
	assert_false(r.gates[VD_GATE_OVERFITTING].pass);
	assert_int_equal(r.verdict, VD_NOT_READY);
	vd_gate_why(&f, &r, VD_GATE_OVERFITTING, why, sizeof why);
	assert_non_null(strstr(why, "in 70 of 100 splits"));
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "from the 40 declared variants themselves"));
	assert_non_null(strstr(buf, "overfitting gate failed"));
	v = vd_to_json(&f, &r, &in, NULL, buf, "numbers");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v, "gates")), VD_NGATES);
	assert_string_equal(sa_json_str(cJSON_GetArrayItem(cJSON_GetObjectItem(v, "gates"), VD_GATE_OVERFITTING), "name", ""),
			    "overfitting");
	cJSON_Delete(v);

	/* below the threshold it passes, and every other gate passing makes READY */
	snprintf(buf, sizeof buf, stats, "0.2");
	put_full(dir, "stats.json", buf);
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.verdict, VD_READY_FOR_MICRO_LIVE);
	/* the gate reads the median over the block counts, and says how far they spread */
	put_full(dir, "stats.json", "{\"stage\":\"stats\",\"schema\":1,\"ok\":true,\"benchmark_relative\":{\"alpha_annualised\":0.2,\"alpha_t\":4,\"beta\":0.1,\"beta_t\":1},"
		"\"trades\":1065,\"trials\":40,"
		"\"mean_net_return\":0.0013,\"sharpe\":1.5,\"psr\":1,\"dsr\":1,\"sr0\":0.1,"
		"\"min_trl\":6,\"net_return\":3.0,\"max_drawdown\":0.01,"
		"\"concentration\":{\"removed\":54,\"mean_net_return_without\":0.001},"
		"\"variants\":{\"declared\":true,\"count\":40,\"ran\":40},"
		"\"pbo\":{\"value\":0.4571,\"value_at_blocks\":0.4166,\"blocks\":16,\"combinations\":12870,"
		"\"by_blocks\":{\"8\":0.4571,\"10\":0.5198,\"12\":0.5032,\"14\":0.3995,\"16\":0.4166},"
		"\"spread\":{\"min\":0.3995,\"max\":0.5198}}}");
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	assert_true(r.gates[VD_GATE_OVERFITTING].pass);
	assert_near_v(r.gates[VD_GATE_OVERFITTING].value, 0.4571);
	vd_gate_why(&f, &r, VD_GATE_OVERFITTING, why, sizeof why);
	assert_string_equal(why, "PBO 0.46, the median over 5 block counts from 8 to 16 (from 0.40 to "
			    "0.52; 12870 splits at 16 blocks) of 40 variants: in 46 of 100 splits of its "
			    "history the variant that looked best in-sample ranked at or below the median "
			    "out of sample; below 0.50 needed");
	/* unknown PBO with variants declared fails the gate */
	snprintf(buf, sizeof buf, stats, "null");
	put_full(dir, "stats.json", buf);
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	assert_false(r.gates[VD_GATE_OVERFITTING].pass);

	/* declared in inspect.json but never measured (the variants stage failed): the gate
	 * still counts, and fails with the reason */
	put_full(dir, "inspect.json", "{\"stage\":\"inspect\",\"schema\":1,\"ok\":true,\"strategy\":{\"present\":true,"
				 "\"variants\":{\"declared\":true,\"count\":40}}}");
	put_full(dir, "stats.json", "{\"stage\":\"stats\",\"schema\":1,\"ok\":true,\"benchmark_relative\":{\"alpha_annualised\":0.2,\"alpha_t\":4,\"beta\":0.1,\"beta_t\":1},"
		"\"trades\":1065,\"trials\":3,"
			       "\"mean_net_return\":0.0013,\"sharpe\":1.5,\"psr\":1,\"dsr\":1,\"sr0\":0.1,"
			       "\"min_trl\":6,\"net_return\":3.0,\"max_drawdown\":0.01,\"concentration\":{\"removed\":54,\"mean_net_return_without\":0.001},\"pbo\":null,"
			       "\"pbo_reason\":\"variants.json is unusable: missing\"}");
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.ngates, VD_NGATES);
	assert_false(r.gates[VD_GATE_OVERFITTING].pass);
	vd_gate_why(&f, &r, VD_GATE_OVERFITTING, why, sizeof why);
	assert_non_null(strstr(why, "PBO not measured: variants.json is unusable"));
	unlink(sa_fmt(buf, sizeof buf, "%s/inspect.json", dir));

	/* a refusal in one variant run is a refusal of the upload */
	put_full(dir, "variants.json", "{\"stage\":\"variants\",\"schema\":1,\"ok\":true,\"declared\":true,"
				  "\"count\":40,\"ran\":39,\"blocked_actions\":2}");
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.verdict, VD_REJECTED_UNSAFE);
	vd_veto_reason(&f, &r, VD_REJECTED_UNSAFE, why, sizeof why);
	assert_non_null(strstr(why, "2 in the runs of the declared variants"));
	rmdir_all(dir);
}

/* The live replay (lookahead.json live): a confirmed leak vetoes where no truncated re-run saw
 * one, and the veto names the first bars with both decisions and what the difference is worth
 * (replay.json); with bars past the budget, how many were decided live and the sample's bound
 * are said in one clause, in the summary and in verdict.json. */
static void test_dir_live(void **state)
{
	static const char live[] =
		"{\"stage\":\"lookahead\",\"schema\":1,\"ok\":true,\"clean\":%s,\"complete\":true,"
		"\"points_checked\":200,\"points_run\":200,\"mismatch_count\":0,\"mismatches\":[],"
		"\"live\":{\"ok\":true,\"reason\":null,\"bars\":17544,\"decided\":%s,\"complete\":%s,"
		"\"window\":1024,\"differing\":12,\"confirmed_leaks\":%s,\"memory_mismatches\":0,"
		"\"unconfirmed\":9,\"failed_runs\":0,"
		"\"first_differences\":[{\"bar\":700,\"time\":\"2023-01-30T04:00:00Z\",\"backtest\":-1,"
		"\"live\":1,\"confirmed\":\"memory\"},{\"bar\":812,\"time\":\"2023-02-03T20:00:00Z\","
		"\"backtest\":1,\"live\":0,\"confirmed\":\"leak\"},{\"bar\":901,\"time\":\"2023-02-07T13:00:00Z\","
		"\"backtest\":0,\"live\":-1,\"confirmed\":\"leak\"}],"
		"\"sample\":%s,\"signals\":[]}}";
	char *dir = tmpdir(), buf[4096], why[2048];
	struct vd_facts f;
	struct vd_inputs in;
	struct vd_result r;
	const cJSON *l;
	cJSON *v;

	(void)state;
	put(dir, "config.json", "{\"stage\":\"config\",\"schema\":1,\"trials\":1}");
	put_full(dir, "run.json", "{\"stage\":\"sandbox\",\"schema\":1,\"ok\":true,\"status\":\"ok\",\"blocked_actions\":0}");
	put(dir, "events.jsonl", "");
	put_full(dir, "replay.json", "{\"stage\":\"replay\",\"schema\":1,\"ok\":true,\"mode\":\"signals\","
				"\"scored\":\"live\",\"live_vs_backtest\":{\"differing_bars\":12,"
				"\"net_return_live\":0.032,\"net_return_backtest\":0.406,\"difference\":0.374}}");
	put_full(dir, "stats.json", "{\"stage\":\"stats\",\"schema\":1,\"ok\":true,\"benchmark_relative\":{\"alpha_annualised\":0.2,\"alpha_t\":4,\"beta\":0.1,\"beta_t\":1},"
		"\"trades\":1065,\"trials\":1,"
			       "\"mean_net_return\":0.0013,\"sharpe\":1.5,\"psr\":1,\"dsr\":1,\"sr0\":0,"
			       "\"min_trl\":6,\"net_return\":3.0,\"max_drawdown\":0.01,\"concentration\":{\"removed\":54,\"mean_net_return_without\":0.001}}");
	snprintf(buf, sizeof buf, live, "false", "17544", "true", "3", "null");
	put_full(dir, "lookahead.json", buf);
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(f.num.live_leaks, 3);
	assert_int_equal(r.gate_verdict, VD_READY_FOR_MICRO_LIVE);
	assert_int_equal(r.verdict, VD_REJECTED_LOOKAHEAD);
	vd_veto_reason(&f, &r, VD_REJECTED_LOOKAHEAD, why, sizeof why);
	assert_string_equal(why, "decided bar by bar with only the past, 12 bars differ from the "
			    "backtest's decisions, 3 of them confirmed as look-ahead by a re-run on the "
			    "whole history up to the bar: at bar 812 (2023-02-03T20:00:00Z) the backtest "
			    "went long, while with only the past it stayed flat; at bar 901 "
			    "(2023-02-07T13:00:00Z) the backtest stayed flat, while with only the past it "
			    "went short; the backtest claims a net return of +40.60 %, the live decisions "
			    "make +3.20 %");
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "; every one of its 17544 bars was decided live, with only the bars up to it."));
	assert_non_null(strstr(buf, "Rejected for look-ahead: decided bar by bar"));
	assert_non_null(strstr(buf, "the figures score the live decisions"));
	v = vd_to_json(&f, &r, &in, NULL, buf, "numbers");
	l = cJSON_GetObjectItem(v, "live");
	assert_int_equal((int)sa_json_num(l, "confirmed_leaks", -1), 3);
	assert_true(sa_json_bool(l, "complete", false));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(l, "sample")));
	assert_near_v(sa_json_num(l, "net_return_backtest", NAN), 0.406);
	assert_non_null(strstr(sa_json_str(cJSON_GetArrayItem(cJSON_GetObjectItem(v, "vetoes"), 0),
					   "reason", ""), "at bar 812 (2023-02-03T20:00:00Z)"));
	cJSON_Delete(v);

	/* past the budget: how many bars were decided live, and the sample's bound, in one
	 * clause; differences, none confirmed, are no veto (the live decisions are scored) */
	snprintf(buf, sizeof buf, live, "true", "12000", "false", "0",
		 "{\"drawn\":299,\"disagreeing\":0,\"share\":0.01,\"confidence\":0.95}");
	put_full(dir, "lookahead.json", buf);
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.verdict, VD_READY_FOR_MICRO_LIVE);
	vd_summary(&f, &r, buf, sizeof buf);
	static const char clause[] = "12000 of its 17544 bars were decided live, with only the bars "
		"up to each (the rest take the backtest's decisions), and 299 of the rest drawn from a "
		"secret seed found 0 that disagree: a look-ahead acting on 1 % of the bars would have "
		"been caught with 95 % confidence; 12 bars decided live differ from the backtest, none "
		"confirmed as look-ahead, and the statistics score the live decisions";
	assert_non_null(strstr(buf, clause));
	v = vd_to_json(&f, &r, &in, NULL, buf, "numbers");
	l = cJSON_GetObjectItem(v, "live");
	assert_string_equal(sa_json_str(l, "clause", ""), clause);
	assert_false(sa_json_bool(l, "complete", true));
	assert_int_equal((int)sa_json_num(l, "decided", -1), 12000);
	assert_int_equal((int)sa_json_num(cJSON_GetObjectItem(l, "sample"), "drawn", -1), 299);
	cJSON_Delete(v);

	/* every bar decided, but not every difference settled: said, not "every bar" alone */
	snprintf(buf, sizeof buf, live, "false", "17544", "false", "3", "null");
	put_full(dir, "lookahead.json", buf);
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	assert_int_equal(r.verdict, VD_REJECTED_LOOKAHEAD);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "; every one of its 17544 bars was decided live, with only the bars "
			       "up to it, but the live check is incomplete (9 differences from the "
			       "backtest left unconfirmed, 0 live runs failed)."));

	/* the live replay could not run: said, and the backtest's decisions are what was scored */
	put_full(dir, "lookahead.json", "{\"stage\":\"lookahead\",\"schema\":1,\"ok\":true,\"clean\":true,"
				   "\"complete\":true,\"points_checked\":200,\"points_run\":200,"
				   "\"live\":{\"ok\":false,\"reason\":\"the bot answered twice\"}}");
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_non_null(strstr(buf, "the live replay could not run (the bot answered twice), so the "
			    "backtest's decisions were scored"));
	/* no live object (a file from before the live replay): nothing said, null in verdict.json */
	put_full(dir, "lookahead.json", "{\"stage\":\"lookahead\",\"schema\":1,\"ok\":true,\"clean\":true,"
				   "\"complete\":true,\"points_checked\":200,\"points_run\":200}");
	vd_load_dir(dir, &f, &in);
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, buf, sizeof buf);
	assert_null(strstr(buf, "decided live"));
	v = vd_to_json(&f, &r, &in, NULL, buf, "numbers");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(v, "live")));
	cJSON_Delete(v);
	rmdir_all(dir);
}

/* Fields the demos' audits never hold (refusals where nothing was refused, a live sample, a
 * declared search, a ruin): each one of another type makes the verdict INCOMPLETE, naming the
 * file and the field; the same files well typed do not. */
static void test_dir_fields_mistyped(void **state)
{
	static const struct {
		const char *name, *good, *bad, *said;
	} cases[] = {
		{ "run.json", "{\"refusals\":[{\"rule\":\"no network\",\"count\":1,\"first\":{\"action\":\"socket\"}}],\"blocked_actions\":0}",
		  "{\"refusals\":[{\"rule\":\"no network\",\"count\":\"1\",\"first\":{\"action\":\"socket\"}}],\"blocked_actions\":0}",
		  "run.json: the field \"refusals[].count\" is not a number" },
		{ "lookahead.json", "{\"complete\":true,\"live\":{\"ok\":true,\"bars\":10,\"decided\":5,\"complete\":true,\"differing\":0,"
		  "\"confirmed_leaks\":0,\"memory_mismatches\":0,\"unconfirmed\":0,\"failed_runs\":0,\"first_differences\":[],"
		  "\"sample\":{\"drawn\":5,\"disagreeing\":0,\"share\":0.1,\"confidence\":0.9}}}",
		  "{\"complete\":true,\"live\":{\"ok\":true,\"bars\":10,\"decided\":5,\"complete\":true,\"differing\":0,"
		  "\"confirmed_leaks\":0,\"memory_mismatches\":0,\"unconfirmed\":0,\"failed_runs\":0,\"first_differences\":[],"
		  "\"sample\":{\"drawn\":5,\"disagreeing\":0,\"share\":\"10%\",\"confidence\":0.9}}}",
		  "lookahead.json: the field \"live.sample.share\" is not a number or null" },
		{ "stats.json", "{\"trades\":10,\"declared_search\":{\"hyperopt\":false,\"hyperopt_grid\":null,"
		  "\"optimize_grid\":12,\"counted\":12}}",
		  "{\"trades\":10,\"declared_search\":{\"hyperopt\":false,\"hyperopt_grid\":null,"
		  "\"optimize_grid\":12,\"counted\":[12]}}",
		  "stats.json: the field \"declared_search.counted\" is not a number or null" },
		{ "stats.json", "{\"trades\":10,\"ruined\":true,\"ruin_time\":\"2024-01-01T00:00:00Z\"}",
		  "{\"trades\":10,\"ruined\":true,\"ruin_time\":17}",
		  "stats.json: the field \"ruin_time\" is not a string or null" },
	};
	char *dir = tmpdir();
	struct vd_facts f;
	struct vd_inputs in;
	struct vd_result r;

	(void)state;
	put_full(dir, "replay.json", "{}");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		put_full(dir, "run.json", "{}");
		put_full(dir, "lookahead.json", "{}");
		put_full(dir, "stats.json", "{}");
		put_full(dir, cases[i].name, cases[i].good);
		vd_load_dir(dir, &f, &in);
		vd_decide(&f.num, &f.th, &r);
		assert_false(f.num.broken);
		assert_int_not_equal(r.verdict, VD_INCOMPLETE);
		put_full(dir, cases[i].name, cases[i].bad);
		vd_load_dir(dir, &f, &in);
		vd_decide(&f.num, &f.th, &r);
		assert_true(f.num.broken);
		assert_int_equal(r.verdict, VD_INCOMPLETE);
		assert_string_equal(f.contract, cases[i].said);
	}
	rmdir_all(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_dir_still_decides),
		cmocka_unit_test(test_error_line_cut_at_a_word),
		cmocka_unit_test(test_refusal_kinds_named),
		cmocka_unit_test(test_dir_with_killed_run_and_events),
		cmocka_unit_test(test_dir_lookahead_from_files),
		cmocka_unit_test(test_dir_lookahead_refusals_veto),
		cmocka_unit_test(test_dir_variants),
		cmocka_unit_test(test_dir_live),
		cmocka_unit_test(test_dir_fields_mistyped),
	};

	sa_set_prog("test_verdict_dir");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
