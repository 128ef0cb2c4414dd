/* sbx_stage.c - the skeleton of the stages that run the upload (sbx_stage.h). */
#include "sbx_stage.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "jsonio.h"
#include "msg.h"
#include "sbx.h"

/* Returns 0, 1 for --help, or -1 (message printed) for a bad command line. */
static int parse(const struct sbx_stage *st, int argc, char **argv, struct sbx_stage_args *a)
{
	static const struct option longopts[] = {
		{"strategy", required_argument, NULL, 's'}, {"run", required_argument, NULL, 'r'},
		{"inspect", required_argument, NULL, 'i'},  {"data", required_argument, NULL, 'd'},
		{"config", required_argument, NULL, 'c'},   {"jobs", required_argument, NULL, 'j'},
		{"output", required_argument, NULL, 'o'},   {"csv", required_argument, NULL, 'v'},
		{"matrix", required_argument, NULL, 'm'},   {"started", required_argument, NULL, 'S'},
		{"timing", no_argument, NULL, 't'},         {"help", no_argument, NULL, 'h'},
		{"replay", required_argument, NULL, 'p'},   {"family", required_argument, NULL, 'f'},
		{"signals", required_argument, NULL, 'g'},   {"runs", required_argument, NULL, 'R'},
		{NULL, 0, NULL, 0},
	};
	unsigned opt = st->options;
	int c;

	*a = (struct sbx_stage_args){ .jobs = 2 };
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': a->strategy = optarg; break;
		case 'd': a->data = optarg; break;
		case 'c': a->config = optarg; break;
		case 'o': a->out = optarg; break;
		case 'h': return 1;
		case 'r': if (!(opt & SBX_STAGE_RUN)) return sa_error("unknown option --run"); a->run = optarg; break;
		case 'i': if (!(opt & (SBX_STAGE_INSPECT | SBX_STAGE_EXITS))) return sa_error("unknown option --inspect"); a->inspect = optarg; break;
		case 'v': if (!(opt & SBX_STAGE_TABLES)) return sa_error("unknown option --csv"); a->csv = optarg; break;
		case 'm': if (!(opt & SBX_STAGE_TABLES)) return sa_error("unknown option --matrix"); a->matrix = optarg; break;
		case 'p': if (!(opt & SBX_STAGE_REPLAY)) return sa_error("unknown option --replay"); a->replay = optarg; break;
		case 'f': if (!(opt & SBX_STAGE_FAMILY)) return sa_error("unknown option --family"); a->family = optarg; break;
		case 'g': if (!(opt & SBX_STAGE_SIGNALS)) return sa_error("unknown option --signals"); a->signals = optarg; break;
		case 'R': if (!(opt & SBX_STAGE_RUNS)) return sa_error("unknown option --runs"); a->runs = optarg; break;
		case 't': if (!(opt & SBX_STAGE_TIMING)) return sa_error("unknown option --timing"); a->timing = true; break;
		case 'j':
			if (sbx_parse_jobs(optarg, &a->jobs) < 0)
				return sa_error("--jobs wants a whole number from 1 to %d, '%s'", SBX_MAX_JOBS, optarg);
			break;
		case 'S':
			if (sbx_parse_started(optarg, &a->started) < 0)
				return sa_error("--started wants seconds since the epoch, '%s'", optarg);
			break;
		default: return -1;
		}
	}
	if (optind < argc)
		return sa_error("unexpected argument, '%s'", argv[optind]);
	if (!a->data || !a->config || !a->out)
		return sa_error("--data, --config and -o are all required");
	if ((opt & SBX_STAGE_RUN) && !a->run)
		return sa_error("--run is required");
	if ((opt & SBX_STAGE_INSPECT) && !a->inspect)
		return sa_error("--inspect is required");
	if ((opt & SBX_STAGE_REPLAY) && !a->replay)
		return sa_error("--replay is required");
	if ((opt & SBX_STAGE_SIGNALS) && !a->signals)
		return sa_error("--signals is required");
	if ((opt & SBX_STAGE_RUNS) && !a->runs)
		return sa_error("--runs is required");
	if ((opt & SBX_STAGE_TABLES) && (!a->csv || !a->matrix))
		return sa_error("--csv and --matrix are required");
	return 0;
}

int sbx_stage_fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

int sbx_stage_main(const struct sbx_stage *st, int argc, char **argv)
{
	struct sbx_stage_args a;
	struct timespec t0, t1;
	char err[1024] = "";
	cJSON *res;
	int rc;

	sa_set_prog(argv[0]);
	rc = parse(st, argc, argv, &a);
	if (rc == 1) {
		st->usage(stdout);
		return SA_EXIT_OK;
	}
	if (rc < 0)
		sa_usage_die("bad command line");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	res = st->check(&a, err, sizeof err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (a.timing)
		fprintf(stderr, "%s: %.3f s\n", st->name, (double)(t1.tv_sec - t0.tv_sec) +
			(double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (!res)
		sa_die("could not write the tables of '%s': %s", a.out, err);
	rc = sa_json_write(a.out, res, err, sizeof err);
	cJSON_Delete(res);
	if (rc < 0)
		sa_die("%s", err);
	return SA_EXIT_OK;
}
