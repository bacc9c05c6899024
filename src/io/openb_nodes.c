/* The Alibaba openb node list (sn,cpu_milli,memory_mib,gpu,model) as a
 * gp_cluster: one node type per (GPU model, GPU count), named
 * "openb-<model>x<count>", whose intra-node links are unknown and so
 * recorded as SYS; no switch fabric; per-node CPU and memory as openb
 * has them (gp_node.cpu_milli, mem_mib).  The CSV reading is shared with
 * the fractional-sharing engine (share_csv.c).
 *
 * A model the catalog does not know (openb's G1, G2, G3: undisclosed
 * internal types) gets an entry of its own in this cluster's catalog,
 * named as in the file, vendor "undisclosed" and every figure 0 (unknown:
 * nothing is invented), so that gpu_spec constraints naming it match its
 * nodes; the performance model refuses it for lack of FLOPS. */
#include <stdio.h>
#include <string.h>

#include "gpuplan/io/openb.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/util/util.h"

int gp_cluster_load_openb(const char *path, gp_cluster *c, gp_error *err)
{
	gp_openb_nodes n;
	int st, i;

	gp_cluster_init(c);
	if ((st = gp_openb_nodes_load(path, &n, err)))
		return st;
	gp_catalog_init_builtin(&c->catalog);
	c->path = gp_xstrdup(path);
	for (i = 0; i < n.n; i++) {
		const char *model;
		char tname[96];
		int type, idx;

		if (n.ngpus[i] == 0) {
			st = gp_error_set(err, GP_EINPUT, path, i + 2, 1,
					  "node '%s' has no GPU; a gpuplan cluster needs GPU nodes "
					  "(use the openb GPU node list)", n.names[i]);
			goto fail;
		}
		model = n.models[n.model[i]];
		snprintf(tname, sizeof(tname), "openb-%sx%d", model, n.ngpus[i]);
		type = gp_cluster_find_type(c, tname);
		if (type < 0 && gp_catalog_index(&c->catalog, model) < 0) {
			gp_gpu_model m;

			memset(&m, 0, sizeof(m));
			snprintf(m.name, sizeof(m.name), "%s", model);
			snprintf(m.vendor, sizeof(m.vendor), "undisclosed");
			gp_catalog_put(&c->catalog, &m);
		}
		if (type < 0) {
			gp_topo t;

			gp_topo_init(&t);
			if ((st = gp_topo_alloc(&t, n.ngpus[i], 0, err)))
				goto fail;
			t.source = gp_xstrdup(path);
			type = gp_cluster_add_type(c, tname, &t, gp_catalog_index(&c->catalog, model));
			gp_topo_release(&t);
		}
		idx = gp_cluster_add_node(c, n.names[i], type, -1);
		c->nodes[idx].cpu_milli = n.cpu_milli[i];
		c->nodes[idx].mem_mib = n.mem_mib[i];
		c->nodes[idx].line = i + 2;
		c->nodes[idx].col = 1;
	}
	gp_openb_nodes_release(&n);
	if ((st = gp_cluster_finish(c, err))) {
		gp_cluster_release(c);
		return st;
	}
	return GP_OK;
fail:
	gp_openb_nodes_release(&n);
	gp_cluster_release(c);
	return st;
}
