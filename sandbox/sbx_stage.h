/* sbx_stage.h - the skeleton the stages that run the upload share (lookahead, robust, sealed, variants),
 * and the ones that score the runs they kept (robust_score, sealed_score, variants_score): one command line,
 * one way to say why a check could not be made, one main. Each stage keeps only what it does
 * with its runs. */
#ifndef SBX_STAGE_H
#define SBX_STAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

/* The command line of a stage that runs the upload. */
struct sbx_stage_args {
	const char *strategy;   /* --strategy: none uploaded when NULL */
	const char *run;        /* --run run.json (the full run) */
	const char *inspect;    /* --inspect inspect.json (the declared VARIANTS and exits) */
	const char *data, *config, *out;
	const char *csv, *matrix;  /* --csv, --matrix (variants' tables) */
	const char *replay;     /* --replay replay.json (the open data's score) */
	const char *family;     /* --family: which parameter sets of inspect.json (variants) */
	const char *signals;    /* --signals FILE: the runs' signals, for the stage that scores them */
	const char *runs;       /* --runs FILE: the index of the runs a stage kept */
	int jobs;               /* --jobs, runs at once (2 when not given) */
	long long started;      /* --started, the audit's start (seconds since the epoch), 0 if not given */
	bool timing;            /* --timing: the stage's wall time on stderr, never in a file */
};

/* Which of the options a stage takes besides --strategy --data --config --jobs --started -o,
 * and which it requires. */
enum {
	SBX_STAGE_RUN = 1,      /* --run, required */
	SBX_STAGE_INSPECT = 2,  /* --inspect, required */
	SBX_STAGE_TABLES = 4,   /* --csv and --matrix, required */
	SBX_STAGE_TIMING = 8,   /* --timing */
	SBX_STAGE_EXITS = 16,   /* --inspect, optional (robust: the declared exits; lookahead: a
				 * declared startup_candle_count) */
	SBX_STAGE_REPLAY = 32,  /* --replay, required */
	SBX_STAGE_FAMILY = 64,  /* --family NAME, optional */
	SBX_STAGE_SIGNALS = 128,/* --signals, required (runsig.h: robust, variants) */
	SBX_STAGE_RUNS = 256,   /* --runs, required: a scoring stage, which runs nothing */
};

/* One stage: its name (the program, and the "stage" of the JSON it writes), the options it
 * takes, its usage text, and its work: check() returns the output tree (a check that could not
 * be made is "ok": false with the reason), or NULL with the reason in err when the tool itself
 * could not work (a table it could not write). */
struct sbx_stage {
	const char *name;
	unsigned options;
	void (*usage)(FILE *fp);
	cJSON *(*check)(const struct sbx_stage_args *a, char *err, size_t errlen);
};

/* The whole main: parses the command line (--help prints the usage and exits 0; a bad line
 * exits 2), runs the check, writes its tree to -o, and exits 0, or 3 when the tool could not
 * work. */
int sbx_stage_main(const struct sbx_stage *st, int argc, char **argv);

/* Formats the reason a check could not be made into why and returns -1. */
int sbx_stage_fail(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
