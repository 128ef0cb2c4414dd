/* stats_timing.c - wall and CPU time of SPA and of the Monte Carlo of the trades, for make
 * bench. */
#include "stats_timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "msg.h"
#include "stats_montecarlo.h"
#include "stats_spa.h"
#include "vmatrix.h"

struct clocks {
	struct timespec wall, cpu;
};

static void start(struct clocks *c)
{
	clock_gettime(CLOCK_MONOTONIC, &c->wall);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c->cpu);
}

static double ms(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

/* Milliseconds since start: wall into *wall, CPU returned. */
static double stop(const struct clocks *c, double *wall)
{
	struct clocks now;

	start(&now);
	*wall = ms(&c->wall, &now.wall);
	return ms(&c->cpu, &now.cpu);
}

/* n seeded Gaussian values of sd, into a new array (caller frees). */
static double *noise(size_t n, double sd)
{
	double *m = malloc((n ? n : 1) * sizeof *m);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	if (!m || !r)
		sa_die("out of memory");
	gsl_rng_set(r, 1);
	for (size_t i = 0; i < n; i++)
		m[i] = gsl_ran_gaussian(r, sd);
	gsl_rng_free(r);
	return m;
}

int sts_time_spa(const char *what)
{
	unsigned long long bars = 0, cols = 0;
	size_t nb, nc;
	char tail = 0, err[512];
	double *m = NULL, wall, cpu;
	struct sts_spa s;
	struct clocks c;

	if (sscanf(what, "%llux%llu%c", &bars, &cols, &tail) == 2 && bars >= 2 && cols >= 1 &&
	    bars <= DA_MAX_CELLS / cols) {
		nb = (size_t)bars;
		nc = (size_t)cols;
		m = noise(nb * nc, 0.01);
	} else if (da_vmatrix_read(what, &m, &nb, &nc, err, sizeof err) < 0) {
		sa_usage_die("--time-spa wants BARSxVARIANTS or a variant_returns.bin: %s", err);
	}
	start(&c);
	if (sts_spa(m, nb, nc, STS_SPA_RESAMPLES, 1, 0.0, &s, err, sizeof err) < 0)
		sa_die("%s", err);
	cpu = stop(&c, &wall);
	printf("spa: %zu bars x %zu variants, %zu resamples, block %.1f: %.1f ms wall, %.1f ms cpu "
	       "(p %.3f)\n", nb, nc, s.resamples, s.block_length, wall, cpu, s.p_value);
	free(m);
	return SA_EXIT_OK;
}

int sts_time_mc(const char *trades)
{
	unsigned long long n = 0;
	char tail = 0, err[512];
	double *r, fan[STS_MC_FAN_POINTS * 5], wall, wall_fan, cpu, cpu_fan;
	struct sts_montecarlo mc;
	struct clocks c;

	if (sscanf(trades, "%llu%c", &n, &tail) != 1 || n < 1 || n > 10000000)
		sa_usage_die("--time-mc wants a number of trades, '%s'", trades);
	r = noise((size_t)n, 0.02);
	start(&c);
	if (sts_montecarlo(r, (size_t)n, 1000, 1, STS_MC_BOOTSTRAP, &mc, NULL, err, sizeof err) < 0)
		sa_die("%s", err);
	cpu = stop(&c, &wall);
	start(&c);
	if (sts_montecarlo(r, (size_t)n, 1000, 1, STS_MC_BOOTSTRAP, &mc, fan, err, sizeof err) < 0)
		sa_die("%s", err);
	cpu_fan = stop(&c, &wall_fan);
	printf("monte carlo: %llu trades, 1000 resamples: %.2f ms wall, %.2f ms cpu; with the fan's "
	       "bands %.2f ms wall, %.2f ms cpu (max drawdown p95 %.3f)\n", n, wall, cpu, wall_fan,
	       cpu_fan, mc.dd_p95);
	free(r);
	return SA_EXIT_OK;
}
