/* sbx_pysrc.c - finds a source of the zygote's own trusted Python in the table the build
 * generates (sbx_pysrc.h). */
#include <string.h>

#include "sbx_pysrc.h"

const char *sbi_pysrc_find(const char *module)
{
	for (size_t i = 0; i < sbi_n_pysrcs; i++)
		if (strcmp(sbi_pysrcs[i].module, module) == 0)
			return sbi_pysrcs[i].src;
	return NULL;
}
