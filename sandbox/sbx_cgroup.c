/* sbx_cgroup.c - the zygote's cgroup: v2 when /sys/fs/cgroup is the unified hierarchy with the
 * memory, pids and cpu controllers, else v1's memory, pids and cpu hierarchies. */
#include "sbx_cgroup_int.h"
#include "sbx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"

#define CG_ROOT "/sys/fs/cgroup"
#define CG_PERIOD_US 100000
/* A process's own weight: v1 cpu.shares, v2 cpu.weight, each hierarchy's default. */
#define CG_V1_SHARES 1024LL
#define CG_V2_WEIGHT 100LL

static const char *const v1_controllers[SBX_CG_DIRS] = { "memory", "pids", "cpu" };

static int put(const char *dir, const char *file, const char *text)
{
	char path[512];
	int fd, rc = -1;
	size_t len = strlen(text);

	snprintf(path, sizeof path, "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, text, len) == (ssize_t)len)
		rc = 0;
	close(fd);
	return rc;
}

/* The value after key in a "key value" lines file, or the file's first number when key is NULL. */
static long long get(const char *dir, const char *file, const char *key)
{
	char path[512], line[256], name[64];
	long long v = -1, x;
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	if (!(fp = fopen(path, "re")))
		return -1;
	while (fgets(line, sizeof line, fp)) {
		if (!key) {
			v = strtoll(line, NULL, 10);
			break;
		}
		if (sscanf(line, "%63s %lld", name, &x) == 2 && strcmp(name, key) == 0) {
			v = x;
			break;
		}
	}
	fclose(fp);
	return v;
}

static int v2_usable(void)
{
	char line[512];
	FILE *fp = fopen(CG_ROOT "/cgroup.subtree_control", "re");
	int ok = 0;

	if (!fp)
		return 0;
	if (fgets(line, sizeof line, fp))
		ok = strstr(line, "memory") && strstr(line, "pids") && strstr(line, "cpu");
	fclose(fp);
	return ok;
}

static void fail(struct sbx_cgroup *cg, const char *what, int err)
{
	sbx_cgroup_remove(cg);
	sa_fmt(cg->why, sizeof cg->why, "%s: %s", what, strerror(err));
}

int sbx_cgroup_enter(struct sbx_cgroup *cg, pid_t pid)
{
	char pidtext[32];
	int n = 1;

	memset(cg, 0, sizeof *cg);
	snprintf(pidtext, sizeof pidtext, "%d", (int)pid);
	if (geteuid() != 0) {
		sa_fmt(cg->why, sizeof cg->why, "the sandbox does not run as root, so it cannot create a cgroup");
		return -1;
	}
	cg->version = v2_usable() ? 2 : 1;
	if (cg->version == 2)
		snprintf(cg->dir[0], sizeof cg->dir[0], CG_ROOT "/strataudit-%d", (int)getpid());
	else
		for (n = 0; n < SBX_CG_DIRS; n++)
			snprintf(cg->dir[n], sizeof cg->dir[n], CG_ROOT "/%s/strataudit-%d",
				 v1_controllers[n], (int)getpid());
	for (int i = 0; i < n; i++)
		if (mkdir(cg->dir[i], 0700) < 0) {
			int err = errno;
			char what[320];
			cg->dir[i][0] = '\0';
			fail(cg, sa_fmt(what, sizeof what, "cannot create a cgroup under %s",
					cg->version == 2 ? CG_ROOT : v1_controllers[i]), err);
			return -1;
		}
	for (int i = 0; i < n; i++)
		if (put(cg->dir[i], "cgroup.procs", pidtext) < 0) {
			fail(cg, "cannot move the sandbox into its cgroup", errno);
			return -1;
		}
	return 0;
}

static int apply(struct sbx_cgroup *cg)
{
	char mem[32], pids[32], cpu[64], weight[32];
	long long quota = (long long)(cg->cpus * CG_PERIOD_US + 0.5);

	snprintf(mem, sizeof mem, "%lld", cg->mem_bytes);
	snprintf(pids, sizeof pids, "%lld", cg->pids_max);
	if (cg->version == 2) {
		snprintf(cpu, sizeof cpu, "%lld %d", quota, CG_PERIOD_US);
		snprintf(weight, sizeof weight, "%lld", cg->tasks * CG_V2_WEIGHT);
		return put(cg->dir[0], "memory.max", mem) < 0 || put(cg->dir[0], "memory.swap.max", "0") < 0 ||
		       put(cg->dir[0], "pids.max", pids) < 0 || put(cg->dir[0], "cpu.max", cpu) < 0 ||
		       put(cg->dir[0], "cpu.weight", weight) < 0 ? -1 : 0;
	}
	snprintf(cpu, sizeof cpu, "%lld", quota);
	snprintf(weight, sizeof weight, "%lld", cg->tasks * CG_V1_SHARES);
	/* memsw (memory + swap) exists only where swap accounting is on; without swap it is moot.
	 * It may never be below the memory limit: raised before it, lowered after it (one of the
	 * two writes of memsw is refused, whichever way the limit moves). */
	(void)put(cg->dir[0], "memory.memsw.limit_in_bytes", mem);
	if (put(cg->dir[0], "memory.limit_in_bytes", mem) < 0)
		return -1;
	(void)put(cg->dir[0], "memory.memsw.limit_in_bytes", mem);
	return put(cg->dir[1], "pids.max", pids) < 0 ||
	       put(cg->dir[2], "cpu.cfs_period_us", "100000") < 0 ||
	       put(cg->dir[2], "cpu.cfs_quota_us", cpu) < 0 ||
	       put(cg->dir[2], "cpu.shares", weight) < 0 ? -1 : 0;
}

int sbx_cgroup_limit(struct sbx_cgroup *cg, const struct sbx_limits *lim, int jobs, long long held_bytes)
{
	if (cg->version == 0)
		return 0;
	if (cg->base_bytes == 0)
		cg->base_bytes = get(cg->dir[0], cg->version == 2 ? "memory.current" : "memory.usage_in_bytes", NULL);
	if (cg->base_bytes < 0) {
		fail(cg, "cannot read the cgroup's memory use", errno);
		return -1;
	}
	cg->mem_bytes = cg->base_bytes + held_bytes + (long long)jobs * ((long long)lim->mem_mb << 20);
	cg->pids_max = (long long)jobs * SBX_CG_PIDS_PER_RUN + 16;
	cg->cpus = jobs * lim->cpus + SBX_CG_ZYGOTE_CPUS;
	cg->tasks = jobs + 1;
	if (apply(cg) < 0) {
		fail(cg, "cannot set the cgroup's limits", errno);
		return -1;
	}
	return 0;
}

long long sbx_cgroup_oom_kills(const struct sbx_cgroup *cg)
{
	if (cg->version == 2)
		return get(cg->dir[0], "memory.events", "oom_kill");
	if (cg->version == 1)
		return get(cg->dir[0], "memory.oom_control", "oom_kill");
	return -1;
}

void sbx_cgroup_remove(struct sbx_cgroup *cg)
{
	for (int i = 0; i < SBX_CG_DIRS; i++)
		if (cg->dir[i][0] && rmdir(cg->dir[i]) == 0)
			cg->dir[i][0] = '\0';
	cg->version = 0;
}
