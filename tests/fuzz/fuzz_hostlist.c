/* Slurm hostlists (util/hostlist.c): expansion; then the compressed form
 * of what came out must expand to the same set of names (compared through
 * hash sets: sorting both lists cost more than the expansion). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/util/hostlist.h"
#include "gpuplan/util/util.h"
#include "fuzz.h"

/* A set of names (open addressing, size a power of two over 2n). */
typedef struct name_set {
	const char **slot;
	size_t mask, n;
} name_set;

static void set_init(name_set *s, size_t n)
{
	size_t cap = 16;

	while (cap < 2 * n)
		cap *= 2;
	s->slot = gp_xcalloc(cap, sizeof(*s->slot));
	s->mask = cap - 1;
	s->n = 0;
}

/* Whether name is in s; with add, put it in when it is not. */
static int set_has(name_set *s, const char *name, int add)
{
	size_t h = gp_hash_str(name) & s->mask;

	for (; s->slot[h]; h = (h + 1) & s->mask)
		if (!strcmp(s->slot[h], name))
			return 1;
	if (add) {
		s->slot[h] = name;
		s->n++;
	}
	return 0;
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
		name_set a, b;
		size_t i;

		gp_sbuf_init(&sb);
		gp_hostlist_compress((const char *const *)h.names, h.n, &sb);
		rc = gp_hostlist_expand(sb.buf, sb.len, &back, "compressed", 1, 1, &err);
		if (rc) {
			fprintf(stderr, "compressed form '%s' does not expand: %s\n", sb.buf, err.msg);
			abort();
		}
		set_init(&a, h.n);
		set_init(&b, back.n);
		for (i = 0; i < h.n; i++)
			set_has(&a, h.names[i], 1);
		for (i = 0; i < back.n; i++) {
			if (!set_has(&a, back.names[i], 0)) {
				fprintf(stderr, "round trip: '%s' was not expanded ('%s')\n",
					back.names[i], sb.buf);
				abort();
			}
			set_has(&b, back.names[i], 1);
		}
		if (a.n != b.n) {
			fprintf(stderr, "round trip: %zu names became %zu ('%s')\n", a.n, b.n, sb.buf);
			abort();
		}
		free(a.slot);
		free(b.slot);
		gp_sbuf_release(&sb);
	}
	gp_hostlist_release(&back);
	gp_hostlist_release(&h);
	return 0;
}
