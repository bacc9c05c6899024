/* Slurm hostlists (util/hostlist.c): expansion; then the compressed form
 * of what came out must expand to the same set of names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/util/hostlist.h"
#include "gpuplan/util/util.h"
#include "fuzz.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted, duplicates dropped, in place; the new count. */
static size_t uniq(char **v, size_t n)
{
	size_t i, k = 0;

	qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++)
		if (k == 0 || strcmp(v[k - 1], v[i]))
			v[k++] = v[i];
	return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gp_hostlist h, back;
	gp_error err = GP_ERROR_INIT;
	int rc;

	gp_hostlist_init(&h);
	gp_hostlist_init(&back);
	rc = gp_hostlist_expand((const char *)data, size, &h, "fuzz", 1, 1, &err);
	gp_fuzz_check_status(rc, err.status);
	if (rc == 0 && h.n > 0 && h.n < 20000) {
		gp_sbuf sb;
		char **a = gp_xmalloc(h.n * sizeof(*a)), **b;
		size_t na, nb, i;

		gp_sbuf_init(&sb);
		gp_hostlist_compress((const char *const *)h.names, h.n, &sb);
		rc = gp_hostlist_expand(sb.buf, sb.len, &back, "compressed", 1, 1, &err);
		if (rc) {
			fprintf(stderr, "compressed form '%s' does not expand: %s\n", sb.buf, err.msg);
			abort();
		}
		memcpy(a, h.names, h.n * sizeof(*a));
		b = gp_xmalloc((back.n ? back.n : 1) * sizeof(*b));
		memcpy(b, back.names, back.n * sizeof(*b));
		na = uniq(a, h.n);
		nb = uniq(b, back.n);
		if (na != nb) {
			fprintf(stderr, "round trip: %zu names became %zu ('%s')\n", na, nb, sb.buf);
			abort();
		}
		for (i = 0; i < na; i++)
			if (strcmp(a[i], b[i])) {
				fprintf(stderr, "round trip: '%s' became '%s'\n", a[i], b[i]);
				abort();
			}
		free(a);
		free(b);
		gp_sbuf_release(&sb);
	}
	gp_hostlist_release(&back);
	gp_hostlist_release(&h);
	return 0;
}
