/* gendata.c - writes the synthetic hourly OHLCV series the demos are audited on (see data/README.md). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "fileio.h"
#include "msg.h"

#define DEFAULT_SEED 5UL
#define DEFAULT_BARS 17544L  /* 2024-01-01 to 2025-12-31, every hour */
#define DEFAULT_START "2024-01-01"
#define MAX_BARS 10000000L
#define FUNDING_PERIOD_S 28800  /* a perpetual's funding instants: every 8 h from midnight UTC */

/* The market model. Every constant is documented in data/README.md; change both together. */
#define START_PRICE 40000.0
#define TREND_MEAN_BARS 500.0    /* mean length of a trending regime, hours */
#define RANGE_MEAN_BARS 700.0    /* mean length of a ranging regime, hours */
#define TREND_DRIFT_MEAN 0.00022 /* log drift per hour in a trend, before the random scale */
#define TREND_DRIFT_SD 0.00007
#define TREND_VOL 0.0010         /* hourly log volatility in a trend */
#define RANGE_VOL 0.0008         /* hourly log volatility in a range */
#define RANGE_PULL 0.40          /* share of the gap to the range's anchor closed each hour */
#define VOL_JITTER 0.25          /* sd of the log of a regime's volatility multiplier */
#define WICK_SCALE 0.6           /* wick length in units of the bar's volatility */
#define BASE_VOLUME 1000.0

enum regime { RANGE = 0, TREND_UP = 1, TREND_DOWN = 2 };

struct model {
	enum regime regime;
	long left;       /* bars left in the regime */
	double drift;    /* log drift per bar (trends) */
	double vol;      /* log volatility per bar */
	double anchor;   /* log price the range pulls towards */
	double logp;     /* log of the last close */
};

struct bar {
	double open, high, low, close, volume;
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: gendata [--seed N] [--bars N] [--start YYYY-MM-DD] -o file.csv\n"
		"\n"
		"Writes a synthetic hourly OHLCV series (UTC) with trending and ranging regimes,\n"
		"deterministic from the seed (GSL mt19937). Defaults: seed %lu, %ld bars, from %s.\n"
		"\n"
		"exit codes: 0 written, 2 usage, 3 could not write\n",
		DEFAULT_SEED, DEFAULT_BARS, DEFAULT_START);
}

/* A regime length in bars, geometric with the given mean and never zero. */
static long regime_length(gsl_rng *r, double mean)
{
	return 1 + (long)gsl_ran_geometric(r, 1.0 / mean);
}

/* Draws the next regime: ranges and trends alternate, a trend's direction is a coin flip. */
static void next_regime(struct model *m, gsl_rng *r)
{
	double jitter = exp(gsl_ran_gaussian(r, VOL_JITTER));

	if (m->regime != RANGE) {
		m->regime = RANGE;
		m->left = regime_length(r, RANGE_MEAN_BARS);
		m->drift = 0.0;
		m->vol = RANGE_VOL * jitter;
		m->anchor = m->logp;
	} else {
		m->regime = gsl_rng_uniform(r) < 0.5 ? TREND_UP : TREND_DOWN;
		m->left = regime_length(r, TREND_MEAN_BARS);
		m->drift = fabs(TREND_DRIFT_MEAN + gsl_ran_gaussian(r, TREND_DRIFT_SD));
		if (m->regime == TREND_DOWN)
			m->drift = -m->drift;
		m->vol = TREND_VOL * jitter;
	}
}

/* Rounds to cents, the precision the file is printed with, so checks hold on printed values. */
static double cents(double x)
{
	return round(x * 100.0) / 100.0;
}

/* Advances the model one hour and fills the bar. Opens at the previous close (a market that
 * never closes), so the only path to the next bar's price is through time. */
static void step(struct model *m, gsl_rng *r, struct bar *b)
{
	double ret, up, down;

	if (m->left <= 0)
		next_regime(m, r);
	m->left--;
	ret = m->drift + gsl_ran_gaussian(r, m->vol);
	if (m->regime == RANGE)
		ret -= RANGE_PULL * (m->logp - m->anchor);
	b->open = cents(exp(m->logp));
	m->logp += ret;
	b->close = cents(exp(m->logp));
	up = fabs(gsl_ran_gaussian(r, m->vol * WICK_SCALE));
	down = fabs(gsl_ran_gaussian(r, m->vol * WICK_SCALE));
	b->high = cents(fmax(b->open, b->close) * exp(up));
	b->low = cents(fmin(b->open, b->close) * exp(-down));
	b->volume = round(BASE_VOLUME * exp(gsl_ran_gaussian(r, 0.3)) *
			  (1.0 + fabs(ret) / m->vol) * 1000.0) / 1000.0;
}

/* Parses "YYYY-MM-DD" as midnight UTC. Returns 0 and sets *t, or -1. */
static int parse_day(const char *s, time_t *t)
{
	struct tm tm;
	char *end;

	memset(&tm, 0, sizeof tm);
	end = strptime(s, "%Y-%m-%d", &tm);
	if (!end || *end)
		return -1;
	*t = timegm(&tm);
	return 0;
}

/* Writes n bars from start to fp. Returns 0, or -1 on a write error. */
static int generate(FILE *fp, unsigned long seed, long n, time_t start)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct model m = { .regime = TREND_UP, .left = 0, .logp = log(START_PRICE) };
	struct bar b;
	char ts[32];
	struct tm tm;
	int rc = -1;

	if (!r)
		goto out;
	gsl_rng_set(r, seed);
	/* the funding column says the series is a perpetual's: the rate FUNDING_BPS_8H charges by
	 * default, at each funding instant (00:00, 08:00, 16:00 UTC) */
	if (fprintf(fp, "time,open,high,low,close,volume,funding_rate\n") < 0)
		goto out;
	for (long i = 0; i < n; i++) {
		time_t t = start + (time_t)i * 3600;

		step(&m, r, &b);
		gmtime_r(&t, &tm);
		strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
		if (fprintf(fp, "%s,%.2f,%.2f,%.2f,%.2f,%.3f,%s\n", ts, b.open, b.high, b.low,
			    b.close, b.volume, t % FUNDING_PERIOD_S ? "0" : "0.0001") < 0)
			goto out;
	}
	rc = 0;
out:
	gsl_rng_free(r);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "bars", required_argument, NULL, 'n' },
		{ "start", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long seed = DEFAULT_SEED;
	long bars = DEFAULT_BARS;
	const char *out = NULL;
	time_t start;
	struct sa_atomic a;
	char err[1024];
	char *end;
	int c;

	sa_set_prog("gendata");
	if (parse_day(DEFAULT_START, &start) < 0)
		sa_die("cannot parse the default start date");
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			errno = 0;
			seed = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-')
				sa_usage_die("bad seed, '%s'", optarg);
			break;
		case 'n':
			errno = 0;
			bars = strtol(optarg, &end, 10);
			if (errno || *end || bars < 2 || bars > MAX_BARS)
				sa_usage_die("bars must be 2 to %ld, '%s'", MAX_BARS, optarg);
			break;
		case 't':
			if (parse_day(optarg, &start) < 0)
				sa_usage_die("start must be YYYY-MM-DD, '%s'", optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			usage(stdout);
			return SA_EXIT_OK;
		default:
			usage(stderr);
			return SA_EXIT_USAGE;
		}
	}
	if (optind < argc)
		sa_usage_die("unexpected argument, '%s'", argv[optind]);
	if (!out)
		sa_usage_die("give the output file with -o");
	if (sa_atomic_open(&a, out, err, sizeof err) < 0)
		sa_die("%s", err);
	if (generate(a.fp, seed, bars, start) < 0) {
		sa_atomic_abort(&a);
		sa_die("cannot write, '%s'", out);
	}
	if (sa_atomic_commit(&a, err, sizeof err) < 0)
		sa_die("%s", err);
	return SA_EXIT_OK;
}
