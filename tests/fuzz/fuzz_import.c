/* Slurm and Kubernetes text (io/import*.c): reading as either family,
 * each starting with the recognition (gp_import_read calls
 * gp_import_sniff; a separate call would only repeat it).  The readers get
 * a NUL after the text, as from gp_read_file in `gpuplan import`.
 *
 * fuzz_import_load.c includes this file with GP_FUZZ_IMPORT_LOAD_BACK:
 * what was read is then written as `gpuplan import` writes it, and the
 * cluster and state texts must load back (a text that does not is what
 * the command reports as an internal error, exit 4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/import.h"
#include "fuzz.h"

#ifdef GP_FUZZ_IMPORT_LOAD_BACK
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/snapshot.h"
#include "gpuplan/io/state.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/util/util.h"

/* The default topologies of well-known systems, loaded once from the
 * repository's topologies/ (harnesses run from its root) and kept for the
 * whole run. */
#define MAX_DEFAULT_TOPOS 16

static const gp_topo *default_topo(void *ctx, const char *file)
{
	static char *names[MAX_DEFAULT_TOPOS];
	static gp_topo topos[MAX_DEFAULT_TOPOS];
	static int ok[MAX_DEFAULT_TOPOS], n;
	gp_error err = GP_ERROR_INIT;
	char *path;
	int i;

	(void)ctx;
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], file))
			return ok[i] ? &topos[i] : NULL;
	if (n == MAX_DEFAULT_TOPOS)
		return NULL;
	i = n++;
	names[i] = gp_xstrdup(file);
	gp_topo_init(&topos[i]);
	path = gp_xasprintf("topologies/%s", file);
	ok[i] = gp_topo_load(path, &topos[i], &err) == GP_OK;
	free(path);
	return ok[i] ? &topos[i] : NULL;
}

/* A finding: say what did not load and why, then abort. */
static void not_loaded(const char *what, const gp_sbuf *text, const gp_error *err)
{
	char buf[1200];

	fprintf(stderr, "fuzz_import: the written %s does not load: %s\n--- %s text ---\n%.*s\n",
		what, gp_error_format(err, buf, sizeof(buf)), what, (int)text->len, text->buf);
	abort();
}

static void write_and_load_back(gp_inventory *inv)
{
	gp_error err = GP_ERROR_INIT;
	gp_import_opts o;
	gp_sbuf cl, st;
	gp_cluster c;
	int rc;

	memset(&o, 0, sizeof(o));
	o.name = "fuzz";
	o.default_topo = default_topo;
	o.command = "gpuplan import (fuzz)";
	gp_sbuf_init(&cl);
	gp_sbuf_init(&st);
	rc = gp_import_write(inv, &o, &cl, &st, &err);
	gp_fuzz_check_status(rc, err.status);
	if (rc == GP_OK) {
		gp_cluster_init(&c);
		if (gp_cluster_parse(cl.buf, cl.len, "fuzz-cluster.yaml", &c, &err))
			not_loaded("cluster", &cl, &err);
		if (st.len) {
			gp_alloc a;
			gp_state s;

			gp_alloc_init(&a, &c);
			gp_state_init(&s);
			if (gp_state_parse(st.buf, st.len, "fuzz-state.yaml", &c, &a, &s, &err))
				not_loaded("state", &st, &err);
			gp_state_release(&s);
			gp_alloc_release(&a);
		}
		gp_cluster_release(&c);
	}
	gp_sbuf_release(&cl);
	gp_sbuf_release(&st);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int family;
	char *text = malloc(size + 1);

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	for (family = 1; family <= 2; family++) {
		gp_inventory inv;
		gp_error err = GP_ERROR_INIT;
		int rc;

		gp_inventory_init(&inv);
		rc = gp_import_read(&inv, family, text, size, "fuzz.txt", &err);
		gp_fuzz_check_status(rc, err.status);
#ifdef GP_FUZZ_IMPORT_LOAD_BACK
		if (rc == GP_OK)
			write_and_load_back(&inv);
#endif
		gp_inventory_release(&inv);
	}
	free(text);
	return 0;
}
