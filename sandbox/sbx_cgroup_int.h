/* sbx_cgroup_int.h - one cgroup per zygote (all of an audit stage's runs), where the machine lets
 * the driver write one: resident memory, process count and a CPU quota. */
#ifndef SBX_CGROUP_H
#define SBX_CGROUP_H

#include <stddef.h>
#include <sys/types.h>

struct sbx_limits;

#define SBX_CG_DIRS 3  /* v1: memory, pids, cpu; v2: one directory */
#define SBX_CG_PIDS_PER_RUN 64
/* The zygote's own CPU, on top of the runs' quota: it forks each run (copying its page tables)
 * while the last one is torn down, so one run at a time already needs more than one core.
 * Without it, CPUS=1 throttled every 100 ms period and nearly doubled a short run's cost. */
#define SBX_CG_ZYGOTE_CPUS 1.0

struct sbx_cgroup {
	int version;                  /* 1 or 2; 0 when none was applied (why says so) */
	char dir[SBX_CG_DIRS][256];   /* the cgroup's directories, "" when unused */
	long long base_bytes;         /* resident memory the warm zygote brought in */
	long long mem_bytes;          /* memory limit applied */
	long long pids_max;           /* process limit applied */
	double cpus;                  /* CPU quota applied, in cores */
	long long tasks;              /* the processes' weight it is given: jobs runs + the zygote */
	char why[160];                /* when version == 0: why there is no cgroup */
};

/* Creates the cgroup and moves pid (the zygote, before it forks anything) into it; its limits
 * are set by sbx_cgroup_limit once the zygote is warm. Returns 0, or -1 with cg->why set and
 * nothing left behind (the sandbox then runs without a cgroup). */
int sbx_cgroup_enter(struct sbx_cgroup *cg, pid_t pid);

/* Sets the limits for jobs runs at once: memory = what the warm zygote holds + held_bytes (the
 * bars the data zygotes hold) + jobs x MEM_MB (resident, scratch tmpfs included), pids = jobs x
 * SBX_CG_PIDS_PER_RUN + 16, CPU = jobs x CPUS + SBX_CG_ZYGOTE_CPUS cores, and the scheduling
 * weight of jobs + 1 processes: a cgroup competes for the CPU as one entity beside each process
 * outside it, so with a single process's weight an audit's runs together got one process's
 * share of a busy machine. Returns 0, or -1 (the cgroup is removed and cg->why says why). Safe
 * when there is no cgroup. */
int sbx_cgroup_limit(struct sbx_cgroup *cg, const struct sbx_limits *lim, int jobs, long long held_bytes);

/* The cgroup's own count of processes the kernel killed at its memory limit; -1 without one. */
long long sbx_cgroup_oom_kills(const struct sbx_cgroup *cg);

/* Removes the cgroup's directories; call once every process in it has been reaped. */
void sbx_cgroup_remove(struct sbx_cgroup *cg);

#endif
