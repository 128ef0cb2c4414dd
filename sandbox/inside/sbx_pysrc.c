/* sbx_pysrc.c - finds a source of the zygote's own trusted Python in the table the build
 * generates (sbx_pysrc.h). */
#include <string.h>

#include "sbx_pysrc.h"

const char *sbx_pysrc_find(const char *module)
{
	for (size_t i = 0; i < sbx_n_pysrcs; i++)
		if (strcmp(sbx_pysrcs[i].module, module) == 0)
			return sbx_pysrcs[i].src;
	return NULL;
}
