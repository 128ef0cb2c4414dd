/* sbx_rules.h - every rule a containment record may name, in one list: the audit hook, the
 * syscall filter's handler, the run's setup and the driver name their refusals from it, and the
 * driver accepts from a run only records whose rule is on it. A record naming any other rule
 * was not written by the sandbox's own code: it is kept as a forged record, so a flood of
 * invented rules cannot crowd out the real ones (the driver keeps records per rule). */
#ifndef SBX_RULES_H
#define SBX_RULES_H

#include <stdbool.h>

/* X(name, text): SBX_R_<name> is the text a record carries. */
#define SBX_RULE_LIST(X) \
	/* the audit hook's */ \
	X(NO_PROC, "no process spawning") \
	X(NO_NET, "no network") \
	X(NO_NATIVE, "no native code") \
	X(IN_SCRATCH, "writes stay in scratch") \
	X(READS, "reads stay in the interpreter's files") \
	X(PLAIN_NAMES, "names resolve from the working directory") \
	X(HOOK_FIXED, "the sandbox is fixed") \
	X(NO_MAP, "no raw memory mappings") \
	X(NO_SIGNALS, "no signals to processes") \
	X(NO_CLIMB, "no climbing the object graph") \
	X(LIMITS, "limits are fixed") \
	/* the syscall filter's */ \
	X(NO_NS, "no namespace or mount changes") \
	X(NO_PEEK, "no reaching into other processes") \
	X(NO_KERN, "no kernel attack surface") \
	X(PLUMBING, "the sandbox's own plumbing is fixed") \
	X(HOST_FILES, "host files stay unchanged") \
	X(NO_HOST_FACTS, "nothing of the host to learn") \
	X(NO_EXEC_MEM, "no executable memory") \
	X(NO_SPECIAL, "no special files") \
	X(SCHEDULE, "the schedule is fixed") \
	X(NOT_LISTED, "deny by default: not a call signals() needs") \
	X(IDENTITY, "identity is fixed") \
	X(APART, "runs share nothing") \
	X(IOCTL, "only terminal queries and descriptor flags") \
	X(PRCTL, "process flags are fixed") \
	/* the run's setup and the driver's own (read from outside the run) */ \
	X(SCRATCH, "scratch stays within its budget") \
	X(MEMORY, "runs stay within the memory limit") \
	X(WALL, "runs stop at the wall-clock limit") \
	X(CPU, "runs stop at the CPU limit") \
	X(FORGED, "the event channel carries sandbox records only")

#define SBX_RULE_TEXT(name, text) static const char SBX_R_##name[] = text;
SBX_RULE_LIST(SBX_RULE_TEXT)
#undef SBX_RULE_TEXT

/* Records kept per rule in a run's list: the first SBX_EVENTS_PER_RULE - 1, then the latest in
 * the last place. Every record is counted, kept or not. */
#define SBX_EVENTS_PER_RULE 16

/* True when rule is one of SBX_RULE_LIST's texts. */
bool sbx_rule_known(const char *rule);

#endif
