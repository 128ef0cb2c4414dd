/* sbi_hook.h - the PEP 578 audit hook armed from C before an upload loads: a readable tripwire
 * that refuses and records, not the boundary. */
#ifndef SBX_HOOK_H
#define SBX_HOOK_H

#include <stdbool.h>
#include <stddef.h>

/* How the hook treats one audit event. */
enum sbi_hook_kind {
	SBI_HOOK_ALLOW,
	SBI_HOOK_REFUSE,       /* always refused */
	SBI_HOOK_OPEN,         /* "open": writes must stay in scratch, reads in the read roots */
	SBI_HOOK_PATHS,        /* its first path arguments must stay in scratch */
	SBI_HOOK_SYMLINK,      /* os.symlink(src, dst): both ends must stay in scratch */
	SBI_HOOK_IMPORT,       /* "import": the module must not be on the blocklist */
	SBI_HOOK_READ,         /* listing or stat of a name: it must be readable (read roots) */
};

struct sbi_hook_rule {
	const char *event;     /* exact name, or a prefix ending in '.' */
	enum sbi_hook_kind kind;
	const char *rule;      /* the named rule an event reports */
	/* Where the dir_fd of the first and of the second path argument sits among the event's
	 * arguments, counted from 1; 0 when it has none. A relative name is resolved from it. */
	unsigned char dir_fd[2];
};

/* One module an upload may not import (its top-level name) and the rule its refusal names. */
struct sbi_hook_block {
	const char *module;
	const char *rule;
};

/* The rule that refuses importing module (dotted: its top-level name decides), or NULL. */
const char *sbi_hook_blocked(const char *module);

/* Drops every blocklisted module (and its submodules) from sys.modules, so an import of one
 * raises the audit event instead of returning the cached copy. Returns 0, or -1. */
int sbi_hook_purge_modules(void);

/* The rule for an audit event name; kind SBI_HOOK_ALLOW (rule NULL) when none matches.
 * Borrowed, static. */
const struct sbi_hook_rule *sbi_hook_lookup(const char *event);

/* True if path (absolute, or relative to cwd) resolves, through any symlinks that exist, to
 * root or below it. A path that does not exist yet is judged by its parent directory. */
bool sbi_path_within(const char *path, const char *cwd, const char *root);

/* Arms the hook (PySys_AddAuditHook) in the calling interpreter. Refusals raise PermissionError
 * and send one event to event_fd. scratch and read_roots are copied. Returns 0, or -1 when the
 * hook could not be added. */
int sbi_hook_install(int event_fd, const char *scratch, const char *const *read_roots, size_t n);

#endif
