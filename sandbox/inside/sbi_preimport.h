/* sbi_preimport.h - the libraries the zygote imports ahead of a strategy that names them. */
#ifndef SBX_PREIMPORT_H
#define SBX_PREIMPORT_H

#include <stddef.h>

/* Imports, in the zygote (before any upload runs), each module of the preimport table whose
 * words all occur in src[0..len): a run then finds it in sys.modules instead of paying its
 * import after lockdown, once per truncated re-run. The source is only searched, never run. A
 * module that fails to import is skipped (the run meets the same error itself). Returns the
 * number imported. */
int sbi_preimport(const char *src, size_t len);

#endif
