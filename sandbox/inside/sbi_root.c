/* sbi_root.c - the zygote's own root: a tmpfs holding read-only binds of the read roots and
 * nothing of the host besides, entered once with pivot_root before any data zygote or run
 * exists (bubblewrap's and nsjail's shape: build the tree on a fresh tmpfs, bind what is
 * needed, pivot, detach the old root). */
#include "sbi_root.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "msg.h"

enum {
	ROOT_BINDS_MAX = 64,  /* read roots bound at most (the zygote passes about a dozen) */
	LINK_DEPTH = 8,       /* links followed on the way to one root */
};

/* The alternatives links the shared libraries go through (libblas.so.3, liblapack.so.3). */
#define ALTERNATIVES "/etc/alternatives"

struct root_build {
	const char *base;              /* the new root's mount point, seen from the old root */
	const char *mirror;            /* where each real path's resident copy lies beneath */
	char *bound[ROOT_BINDS_MAX];   /* the real paths bound so far */
	size_t n_bound;
	char *err;
	size_t errlen;
};

static int fail(struct root_build *b, const char *step, const char *path)
{
	sa_fmt(b->err, b->errlen, "minimal root: %s '%s', '%s'", step, path, strerror(errno));
	return -1;
}

/* Whether path is dir or lies beneath it. */
static int beneath(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static int is_bound(const struct root_build *b, const char *path)
{
	for (size_t i = 0; i < b->n_bound; i++)
		if (beneath(path, b->bound[i]))
			return 1;
	return 0;
}

/* out = the new root's path for an absolute path inside it. */
static int staged(const struct root_build *b, const char *path, char out[PATH_MAX])
{
	int n = snprintf(out, PATH_MAX, "%s%s", b->base, path);
	if (n < 0 || n >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* mkdir -p of the staged path's parent directories (the path itself is left to the caller). */
static int make_parents(const char *dst)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s", dst);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return 0;
}

/* Read-only, no set-uid, no devices, every mount beneath it too; the flags the host's mount
 * has locked (noexec, the atime mode) are kept, as the kernel requires. */
static int seal_bind(const char *dst)
{
	struct mount_attr a = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV };
	struct statvfs sv;
	unsigned long fl = MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV;

	if (syscall(SYS_mount_setattr, AT_FDCWD, dst, AT_RECURSIVE, &a, sizeof a) == 0)
		return 0;
	if (errno != ENOSYS || statvfs(dst, &sv) < 0)
		return -1;
	/* Before 5.12: the top mount only. */
	fl |= sv.f_flag & ST_NOEXEC ? MS_NOEXEC : 0;
	fl |= sv.f_flag & ST_NODIRATIME ? MS_NODIRATIME : 0;
	fl |= sv.f_flag & ST_NOATIME ? MS_NOATIME : sv.f_flag & ST_RELATIME ? MS_RELATIME : MS_STRICTATIME;
	return mount(NULL, dst, NULL, fl, NULL);
}

/* Binds the host's real path at the same path of the new root, read-only. A directory whose
 * mounts beneath it are locked to this namespace can only be bound with them (EINVAL alone). */
static int bind_real(struct root_build *b, char *real)
{
	char dst[PATH_MAX], src[PATH_MAX];
	struct stat st;
	int fd;

	if (snprintf(src, sizeof src, "%s%s", b->mirror, real) >= (int)sizeof src) {
		errno = ENAMETOOLONG;
		return fail(b, "cannot name the copy of", real);
	}
	if (stat(src, &st) < 0 || staged(b, real, dst) < 0 || make_parents(dst) < 0)
		return fail(b, "cannot make the mount point of", real);
	if (S_ISDIR(st.st_mode)) {
		if (mkdir(dst, 0755) < 0 && errno != EEXIST)
			return fail(b, "cannot make the mount point of", real);
	} else {
		if ((fd = open(dst, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) < 0)
			return fail(b, "cannot make the mount point of", real);
		close(fd);
	}
	if (mount(src, dst, NULL, MS_BIND, NULL) < 0 &&
	    (errno != EINVAL || mount(src, dst, NULL, MS_BIND | MS_REC, NULL) < 0))
		return fail(b, "cannot bind", real);
	if (seal_bind(dst) < 0)
		return fail(b, "cannot make read-only", real);
	b->bound[b->n_bound++] = real;
	return 0;
}

static int by_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Every root by its real path, parents before what they hold (a root inside a bound one is
 * already there). A root the host does not have is left out, as Landlock leaves it out. */
static int bind_roots(struct root_build *b, const char *const *roots, size_t n)
{
	char *real[ROOT_BINDS_MAX];
	size_t m = 0;
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		if (m == ROOT_BINDS_MAX) {
			errno = E2BIG;
			rc = fail(b, "too many read roots at", roots[i]);
		} else if ((real[m] = realpath(roots[i], NULL))) {
			m++;
		} else if (errno != ENOENT && errno != ENOTDIR) {
			rc = fail(b, "cannot resolve", roots[i]);
		}
	}
	qsort(real, m, sizeof *real, by_name);
	for (size_t i = 0; i < m; i++) {
		if (rc < 0 || is_bound(b, real[i]))
			free(real[i]);
		else if ((rc = bind_real(b, real[i])) < 0)
			free(real[i]);
	}
	return rc;
}

/* Makes in the new root the symbolic link the host has at path (/lib -> usr/lib). */
static int copy_link(struct root_build *b, const char *path, const char *target)
{
	char dst[PATH_MAX];
	if (staged(b, path, dst) < 0 || make_parents(dst) < 0 ||
	    (symlink(target, dst) < 0 && errno != EEXIST))
		return fail(b, "cannot make the link", path);
	return 0;
}

/* The links on the way from a root's name to its real path (a merged /usr's /lib, /lib64),
 * made again so the name the libraries and the loader cache use resolves in the new root. */
static int link_path(struct root_build *b, const char *path, int depth)
{
	char pre[PATH_MAX], target[PATH_MAX], next[PATH_MAX];
	size_t len = strlen(path);

	if (len >= PATH_MAX || path[0] != '/')
		return 0;
	for (size_t i = 1; i <= len; i++) {
		struct stat st;
		ssize_t t;
		const char *slash;

		if (path[i] != '/' && path[i] != '\0')
			continue;
		memcpy(pre, path, i);
		pre[i] = '\0';
		if (is_bound(b, pre) || lstat(pre, &st) < 0)
			return 0;  /* the host's own tree from here, or nothing to make */
		if (!S_ISLNK(st.st_mode))
			continue;
		if ((t = readlink(pre, target, sizeof target - 1)) < 0)
			return fail(b, "cannot read the link", pre);
		target[t] = '\0';
		if (copy_link(b, pre, target) < 0)
			return -1;
		if (depth == LINK_DEPTH || strstr(target, ".."))
			return 0;
		/* the rest of the name goes on from where the link leads */
		slash = strrchr(pre, '/');
		if (target[0] == '/')
			t = snprintf(next, sizeof next, "%s%s", target, path + i);
		else
			t = snprintf(next, sizeof next, "%.*s/%s%s", (int)(slash - pre), pre, target, path + i);
		return t > 0 && t < (ssize_t)sizeof next ? link_path(b, next, depth + 1) : 0;
	}
	return 0;
}

/* The entries of /etc/alternatives that lead into a bound root, and no other. */
static int link_alternatives(struct root_build *b)
{
	DIR *d = opendir(ALTERNATIVES);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return 0;
	while (rc == 0 && (e = readdir(d))) {
		char path[PATH_MAX], target[PATH_MAX], *real;
		ssize_t t;

		if (e->d_name[0] == '.' ||
		    snprintf(path, sizeof path, "%s/%s", ALTERNATIVES, e->d_name) >= (int)sizeof path ||
		    (t = readlink(path, target, sizeof target - 1)) < 0)
			continue;
		target[t] = '\0';
		if (!(real = realpath(path, NULL)))
			continue;
		if (is_bound(b, real))
			rc = copy_link(b, path, target);
		free(real);
	}
	closedir(d);
	return rc;
}

/* /dev/null (a run's descriptor 0 after its parameters), the scratch mount point, and a proc
 * of this PID namespace (a run reads its own size there before it covers it). */
static int add_fixed(struct root_build *b, const char *scratch)
{
	char dst[PATH_MAX];
	int fd;

	if (staged(b, "/dev/null", dst) < 0 || make_parents(dst) < 0 ||
	    (fd = open(dst, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) < 0)
		return fail(b, "cannot make", "/dev/null");
	close(fd);
	if (mount("/dev/null", dst, NULL, MS_BIND, NULL) < 0)
		return fail(b, "cannot bind", "/dev/null");
	if (staged(b, scratch, dst) < 0 || make_parents(dst) < 0 || mkdir(dst, 0755) < 0)
		return fail(b, "cannot make", scratch);
	if (staged(b, "/proc", dst) < 0 || mkdir(dst, 0555) < 0)
		return fail(b, "cannot make", "/proc");
	/* Where the host lets no new proc be mounted, the zygote's own (each run covers it). */
	if (mount("proc", dst, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0 &&
	    mount("/proc", dst, NULL, MS_BIND | MS_REC, NULL) < 0)
		return fail(b, "cannot mount", "/proc");
	return 0;
}

/* The tree made read-only, then entered: pivot_root(".", ".") stacks the old root over the new
 * one, and detaching it leaves nothing of the host reachable by name. */
static int enter(struct root_build *b)
{
	if (mount(NULL, b->base, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) < 0)
		return fail(b, "cannot make read-only", "/");
	if (chdir(b->base) < 0 || syscall(SYS_pivot_root, ".", ".") < 0)
		return fail(b, "cannot pivot into", b->base);
	if (umount2(".", MNT_DETACH) < 0 || chdir("/") < 0)
		return fail(b, "cannot detach the host's root from", b->base);
	return 0;
}

int sbi_root_enter(const char *const *roots, size_t n, const char *mirror, const char *scratch,
		   char *err, size_t errlen)
{
	/* Built on the scratch mount point: a directory the host has, and one the new root has
	 * again (empty) for the runs' scratch. */
	struct root_build b = { .base = scratch, .mirror = mirror, .err = err, .errlen = errlen };
	int rc = -1;

	if (mount("root", scratch, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,nr_inodes=1024,mode=0755") < 0) {
		fail(&b, "cannot mount a tmpfs at", scratch);
		goto out;
	}
	if (bind_roots(&b, roots, n) < 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (link_path(&b, roots[i], 0) < 0)
			goto out;
	if (link_alternatives(&b) < 0 || add_fixed(&b, scratch) < 0 || enter(&b) < 0)
		goto out;
	rc = 0;
out:
	for (size_t i = 0; i < b.n_bound; i++)
		free(b.bound[i]);
	return rc;
}
