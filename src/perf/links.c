/* From a cluster and a placement to the inputs of the cost formulas: the
 * rings inside each node, the NICs a node can use, the switch hops. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpuplan/perf/perf.h"
#include "gpuplan/util/util.h"

/* Switch levels a path crosses, from the seed-patent weight (IB k,
 * Ethernet 99 + k). */
static int switch_levels(int weight)
{
	return weight >= 100 ? weight - 99 : weight;
}

int gp_perf_fabric_of(const gp_cluster *c, const gp_placement *p, gp_perf_fabric *f,
		      char *bottleneck, size_t bsize, gp_error *err)
{
	char intra_desc[160] = "", net_desc[224] = "";
	double bw_intra = 5000.0, bw_net = 1e300;
	int i, prev = -1, levels = 0;

	memset(f, 0, sizeof(*f));
	f->alpha_intra = GP_PERF_ALPHA_NVLINK_S;
	f->alpha_inter = GP_PERF_ALPHA_NET_S;
	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *pp = &p->parts[i];
		const gp_node *node;
		const gp_topo *t;
		const gp_gpu_model *m;
		gp_link hop;
		int a, b, k;
		double ring;

		if (pp->ngpus <= 0)
			continue;
		if (pp->node < 0 || pp->node >= c->nnodes)
			return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					    "placement names node %d of %d", pp->node, c->nnodes);
		node = &c->nodes[pp->node];
		t = &c->types[node->type].topo;
		m = gp_cluster_node_model(c, pp->node);
		for (k = 0; k < pp->ngpus; k++)
			if (pp->gpus[k] < 0 || pp->gpus[k] >= t->ngpus)
				return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
						    "node '%s' has no GPU %d", node->name,
						    pp->gpus[k]);
		f->n += pp->ngpus;
		f->nodes++;
		if (pp->ngpus > f->per_node)
			f->per_node = pp->ngpus;
		ring = gp_perf_ring_gbs(t, m, pp->gpus, pp->ngpus, &a, &b, &hop);
		if (pp->ngpus > 1 && gp_perf_link_alpha(hop) > f->alpha_intra)
			f->alpha_intra = gp_perf_link_alpha(hop);
		if (ring < bw_intra) {
			char lb[16];

			bw_intra = ring;
			snprintf(intra_desc, sizeof(intra_desc), "%s GPU%d-GPU%d on %s (%.1f GB/s)",
				 gp_link_format(hop, lb, sizeof(lb)), a, b, node->name, ring);
		}
		/* Network side: a ring leaves the node once per channel; with
		 * rail-aligned NICs the node uses one NIC per GPU it has, up to
		 * its NIC count.  A snapshot lists RDMA NICs only: a node without
		 * one is taken to reach its switch through one port of the
		 * switch's technology, and the description says so. */
		{
			int nics = t->nnics > 0 ? t->nnics : 1;
			int use = pp->ngpus < nics ? pp->ngpus : nics;
			double gbit = gp_cluster_node_nic_gbps(c, pp->node);
			double bw = use * gp_perf_nic_gbs(gbit);

			if (gbit > 0 && bw < bw_net) {
				bw_net = bw;
				snprintf(net_desc, sizeof(net_desc),
					 "network: %d x %s NIC on %s%s (%.1f GB/s)", use,
					 gp_fabric_tech_name(node->tech), node->name,
					 t->nnics > 0 ? "" : ", assumed: its snapshot lists no NIC", bw);
			}
			if (prev >= 0 && prev != pp->node) {
				int w = gp_cluster_comm_weight(c, prev, pp->node);

				if (w < 0)
					return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
							    "nodes '%s' and '%s' are not connected",
							    c->nodes[prev].name, node->name);
				if (switch_levels(w) > levels)
					levels = switch_levels(w);
			}
			prev = pp->node;
		}
	}
	if (f->nodes > 1) {
		if (bw_net >= 1e300)
			return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					    "placement spans %d nodes but none has a network attachment",
					    f->nodes);
		f->bw_node_net = bw_net;
		/* NCCL's NET latency covers one switch; each further level adds a
		 * traversal up and one down. */
		f->alpha_inter += GP_PERF_SWITCH_S * 2 * (levels > 1 ? levels - 1 : 0);
	}
	f->bw_intra = bw_intra;
	if (bottleneck && bsize) {
		if (f->n <= 1)
			snprintf(bottleneck, bsize, "none (single GPU)");
		else if (f->nodes > 1 && f->bw_node_net < f->bw_intra)
			snprintf(bottleneck, bsize, "%s", net_desc);
		else
			snprintf(bottleneck, bsize, "%s", intra_desc);
	}
	return GP_OK;
}

int gp_perf_placement_collective(const gp_cluster *c, const gp_placement *p, int coll,
				 int algo, double bytes, gp_perf_coll_result *out,
				 gp_error *err)
{
	gp_perf_fabric f;
	int st;

	memset(out, 0, sizeof(*out));
	st = gp_perf_fabric_of(c, p, &f, out->bottleneck, sizeof(out->bottleneck), err);
	if (st)
		return st;
	gp_perf_coll_eval(coll, algo, &f, bytes, out);
	return GP_OK;
}
