/* Slurm hostlists: "gpu-[001-016,020]" <-> gpu-001 .. gpu-016, gpu-020.
 *
 * Syntax (as Slurm's): items joined by commas outside brackets; an item is
 * text with any number of bracket groups, each a comma list of numbers and
 * ranges lo-hi (lo <= hi).  A range keeps the digit count of lo as the
 * minimum width ("[08-10]" -> 08, 09, 10; "[9-10]" -> 9, 10).  Several
 * bracket groups give their cartesian product ("r[1-2]n[1-2]" -> r1n1,
 * r1n2, r2n1, r2n2). */
#ifndef GPUPLAN_UTIL_HOSTLIST_H
#define GPUPLAN_UTIL_HOSTLIST_H

#include <stddef.h>

#include "gpuplan/util/error.h"
#include "gpuplan/util/util.h"

/* Cap on the names one expression may expand to.  The fuzz build lowers
 * it (Makefile FUZZ_CFLAGS): the same code and the same cap check, but an
 * input of a few bytes no longer costs a million names per execution. */
#ifndef GP_HOSTLIST_MAX
#define GP_HOSTLIST_MAX 1000000
#endif

/* names[i] point into blocks (owned by the list, freed by the release):
 * one allocation per block of names, not one per name. */
typedef struct gp_hostlist {
	char **names;
	size_t n, cap;
	struct gp_hostlist_block *blocks; /* newest first */
} gp_hostlist;

void gp_hostlist_init(gp_hostlist *h);
void gp_hostlist_release(gp_hostlist *h);
/* Append a copy of name. */
void gp_hostlist_push(gp_hostlist *h, const char *name);

/* Expand expr (len bytes; need not be NUL-terminated) and append the names
 * to h in order.  Errors (GP_EINPUT) name file, line and the column of the
 * fault, counting col0 as the column of expr[0]: an unbalanced bracket, an
 * empty item or range, a range lo > hi, a non-number in brackets, more
 * than GP_HOSTLIST_MAX names.  On failure h keeps what it had before. */
int gp_hostlist_expand(const char *expr, size_t len, gp_hostlist *h,
		       const char *file, int line, int col0, gp_error *err);

/* Append the compressed form of names[0..n) to sb: names sorted (by the
 * text before the last digit run, the text after it, then the number),
 * duplicates dropped, consecutive numbers of one prefix folded into
 * ranges, "gpu-[001-016,020]".  Expanding the result gives the sorted
 * distinct names back. */
void gp_hostlist_compress(const char *const *names, size_t n, gp_sbuf *sb);

#endif
