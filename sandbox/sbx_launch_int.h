/* sbx_launch_int.h - what the driver knows of a started zygote (private to the host side). */
#ifndef SBX_LAUNCH_H
#define SBX_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sbx.h"
#include "sbx_cgroup_int.h"

/* A zygote the driver started: its pid (pid 1 of the zygote's namespaces, as the driver sees
 * it), the control socket runs are requested on, the limits every run gets, and the cgroup
 * it and its runs are in. */
struct sbx_zygote {
	pid_t pid;
	int ctrl;
	struct sbx_limits lim;
	uint32_t next_id;
	struct sbx_cgroup cg;
	bool entries;  /* the zygote loaded the framework shims (SBX_READY_SHIMS): a run may answer
			* values with events, to SBX_SIGNAL_EVENTS_MAX */
};

#endif
