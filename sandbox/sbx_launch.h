/* sbx_launch.h - what the driver knows of a started zygote (private to the sandbox's host side). */
#ifndef SBX_LAUNCH_H
#define SBX_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sbx.h"

/* A zygote the driver started: its pid (pid 1 of the zygote's namespaces, as the driver sees
 * it), the control socket runs are requested on, and the limits every run gets. */
struct sbx_zygote {
	pid_t pid;
	int ctrl;
	struct sbx_limits lim;
	uint32_t next_id;
	bool rows;  /* a data zygote (sbx_run_prefix): runs hold their bars already, no data pipe */
};

#endif
