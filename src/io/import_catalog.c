/* Import: GPU product names (Slurm GRES types, Kubernetes product labels)
 * to models of the built-in catalog. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/model/catalog.h"
#include "import_int.h"

/* ---- GPU products -> catalog ---- */

/* Lower-case tokens of s split at '-', '_', ' ' and '.', at most max. */
static int tokens(const char *s, char tok[][24], int max)
{
	int n = 0;
	size_t k = 0;

	for (;; s++) {
		int sep = !*s || *s == '-' || *s == '_' || *s == ' ';

		if (sep) {
			if (k && n < max) {
				tok[n][k] = '\0';
				n++;
			}
			k = 0;
			if (!*s)
				break;
			continue;
		}
		if (k < 23 && n < max)
			tok[n][k++] = (char)tolower((unsigned char)*s);
	}
	return n;
}

/* The catalog model of a product or GRES type; -1 unknown.  *how: 0 exact
 * (or a listed alias), 1 a guess by family, form factor and memory. */
int gp_import_map_product(const gp_catalog *cat, const char *type, int64_t gpu_mem_mib,
			  int *how)
{
	char buf[128], tt[12][24], ct[12][24];
	char *mig;
	int k, nt, i, best = -1, best_score = -1;

	*how = 0;
	if (!type || !*type)
		return -1;
	snprintf(buf, sizeof(buf), "%s", type);
	/* GFD: "A100-SXM4-40GB-MIG-1g.5gb" (single strategy), "...-SHARED" */
	if ((mig = strcasestr(buf, "-MIG-")) || (mig = strcasestr(buf, "_MIG_")))
		*mig = '\0';
	if ((mig = strcasestr(buf, "-SHARED")) && !mig[7])
		*mig = '\0';
	k = gp_catalog_index(cat, buf);
	if (k >= 0) {
		/* an alias such as "a100" is a guess all the same */
		*how = gp_catalog_name_eq(buf, cat->models[k].name) ? 0 : 2;
		return k;
	}
	nt = tokens(buf, tt, 12);
	for (i = 0; i < cat->n; i++) {
		int nc = tokens(cat->models[i].name, ct, 12), score = 0, fam = 0, a, b;

		for (a = 0; a < nt; a++) {
			if (!strcmp(tt[a], "nvidia") || !strcmp(tt[a], "tesla"))
				continue;
			for (b = 0; b < nc; b++)
				if (!strcmp(tt[a], ct[b])) {
					if (b == 0)
						fam = 1;
					score += 2;
				}
			/* "sxm5" vs "sxm", "40gb" vs "40" */
			for (b = 1; b < nc; b++)
				if (strcmp(tt[a], ct[b]) && !strncmp(tt[a], ct[b], 3) &&
				    (!strncmp(tt[a], "sxm", 3) || !strncmp(tt[a], "pci", 3)))
					score += 1;
		}
		/* the family must match: "a100" is not "a10" */
		if (!fam)
			continue;
		if (gpu_mem_mib > 0) {
			double want = cat->models[i].mem_gib * 1024, got = (double)gpu_mem_mib;

			if (got < want * 0.85 || got > want * 1.15)
				continue;
			score += 3;
		}
		if (score > best_score) {
			best_score = score;
			best = i;
		}
	}
	*how = 1;
	return best;
}
