/* nightly_xlsx.h - the night's index.xlsx (libxlsxwriter), the same rows as index.html. */
#ifndef NIGHTLY_XLSX_H
#define NIGHTLY_XLSX_H

#include "nightly_index.h"

/* Writes ix as one worksheet to path (via path.tmp and a rename). Returns 0, or -1 with a
 * message printed. */
int nightly_xlsx_write(const struct nightly_index *ix, const char *path);

#endif
