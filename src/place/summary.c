/* Bottleneck link and predicted ring bandwidth of a placement (place.h).
 * Across nodes a ring leaves each node through as many NICs as the job
 * has GPUs there (rail-optimized fabrics: one NIC per GPU), at most the
 * node's NIC count; each NIC gives gp_perf_nic_gbs of its switch's line
 * rate.  The perf model's gp_perf_fabric_of will refine this once it lands. */
#include <stdio.h>
#include <string.h>

#include "gpuplan/perf.h"
#include "gpuplan/place.h"

void gp_place_summarize(const gp_cluster *c, gp_placement *p, gp_place_summary *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->worst_intra.level = GP_LINK_X;
	s->intra_gbs = 0;
	s->nodes = p->nparts;
	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *part = &p->parts[i];
		const gp_node *n = &c->nodes[part->node];
		const gp_node_type *t = &c->types[n->type];
		int ha, hb;
		gp_link hop = { GP_LINK_X, 0 };
		double gbs;

		s->gpus += part->ngpus;
		if (part->ngpus <= 0)
			continue;
		gbs = gp_perf_ring_gbs(&t->topo, gp_cluster_node_model(c, part->node), part->gpus,
				       part->ngpus, &ha, &hb, &hop);
		if (s->intra_gbs == 0 || gbs < s->intra_gbs)
			s->intra_gbs = gbs;
		if (gp_link_expense(hop) > gp_link_expense(s->worst_intra))
			s->worst_intra = hop;
		if (p->nparts > 1) {
			int nics = t->topo.nnics > 0 ? t->topo.nnics : 1;
			double net;

			if (nics > part->ngpus)
				nics = part->ngpus;
			net = nics * gp_perf_nic_gbs(gp_cluster_node_nic_gbps(c, part->node));
			if (s->net_gbs == 0 || net < s->net_gbs)
				s->net_gbs = net;
		}
		if (i > 0 && s->net_levels >= 0) {
			int w = gp_cluster_comm_weight(c, p->parts[0].node, part->node), k;

			if (w < 0) {
				s->net_levels = -1;
			} else {
				k = w >= 100 ? w - 99 : w;
				if (k >= s->net_levels) {
					s->net_ib = w < 100;
					s->net_levels = k;
				}
			}
		}
	}
	s->ring_gbs = s->intra_gbs;
	gp_link_format(s->worst_intra, s->bottleneck, sizeof(s->bottleneck));
	p->bottleneck = s->worst_intra.level;
	if (p->nparts > 1 && (s->net_gbs < s->intra_gbs || s->intra_gbs == 0)) {
		s->ring_gbs = s->net_gbs;
		snprintf(s->bottleneck, sizeof(s->bottleneck), "NET");
		p->bottleneck = GP_LINK_LEVELS + (s->net_levels > 0 ? s->net_levels : 0);
	}
	p->ring_bw_gbs = s->ring_gbs;
}
