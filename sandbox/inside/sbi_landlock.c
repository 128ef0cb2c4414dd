/* sbi_landlock.c - raw Landlock syscalls; the uapi header here predates net and scope rights. */
#include "sbi_landlock.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "msg.h"

/* Rights newer than the installed uapi header, from the kernel's landlock.h. */
#define LL_FS_TRUNCATE (1ULL << 14)     /* ABI 3 */
#define LL_FS_IOCTL_DEV (1ULL << 15)    /* ABI 5 */
#define LL_NET_BIND_TCP (1ULL << 0)     /* ABI 4 */
#define LL_NET_CONNECT_TCP (1ULL << 1)  /* ABI 4 */
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0)  /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ULL << 1)         /* ABI 6 */

/* The ruleset attribute as ABI 6 defines it; the kernel takes the size we pass. */
struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

#define LL_FS_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)

int sbi_landlock_abi(void)
{
	long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	return v < 0 ? 0 : (int)v;
}

static uint64_t fs_rights(int abi)
{
	uint64_t r = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;  /* ABI 1: bits 0..12 */
	if (abi >= 2)
		r |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		r |= LL_FS_TRUNCATE;
	if (abi >= 5)
		r |= LL_FS_IOCTL_DEV;
	return r;
}

static int add_path(int ruleset, const char *path, uint64_t access)
{
	struct landlock_path_beneath_attr pb = { .allowed_access = access };
	int fd = open(path, O_PATH | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	pb.parent_fd = fd;
	/* A file (not a directory) only takes file rights. */
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0) {
		pb.allowed_access &= LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE |
				     LL_FS_TRUNCATE;
		if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0)
			rc = -1;
	}
	close(fd);
	return rc;
}

int sbi_landlock_apply(const char *const *ro, size_t n, const char *rw, char *err, size_t errlen)
{
	struct ll_ruleset_attr attr = { 0 };
	int abi = sbi_landlock_abi(), ruleset = -1, rc = -1;
	size_t attr_size = sizeof attr;
	uint64_t fs;

	if (abi < 1) {
		sa_fmt(err, errlen, "landlock is not available on this kernel");
		goto out;
	}
	fs = fs_rights(abi);
	attr.handled_access_fs = fs;
	if (abi >= 4)
		attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
	if (abi >= 6)
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
	else if (abi >= 4)
		attr_size = offsetof(struct ll_ruleset_attr, scoped);
	else
		attr_size = offsetof(struct ll_ruleset_attr, handled_access_net);
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0);
	if (ruleset < 0) {
		sa_fmt(err, errlen, "landlock ruleset: %s", strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (add_path(ruleset, ro[i], LL_FS_READ) < 0) {
			sa_fmt(err, errlen, "landlock rule for '%s': %s", ro[i], strerror(errno));
			goto out;
		}
	if (rw && add_path(ruleset, rw, fs & ~(uint64_t)LANDLOCK_ACCESS_FS_EXECUTE) < 0) {
		sa_fmt(err, errlen, "landlock rule for '%s': %s", rw, strerror(errno));
		goto out;
	}
	if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0) {
		sa_fmt(err, errlen, "landlock restrict: %s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (ruleset >= 0)
		close(ruleset);
	return rc;
}
