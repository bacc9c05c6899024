/* Bottleneck link and predicted ring bandwidth of a placement (place.h),
 * taken from the perf model so that `place`, the policies and `perf`
 * agree: gp_perf_fabric_of derives the rings inside each node and the
 * NICs each node can use, gp_perf_coll_eval the flat ring's bandwidth.
 * This file only names the result (link level or network technology and
 * switch levels). */
#include <stdio.h>
#include <string.h>

#include "gpuplan/perf/perf.h"
#include "gpuplan/place/place.h"
#include "place_int.h"

void gp_place_cache_summary_timed(gp_place_cache *pc, int on)
{
	if (pc)
		pc->summary_timed = on;
}

/* Network side: the farthest node from the first (in a tree the set's
 * common ancestor is the shallowest of those pairwise ones) and the
 * slowest node attachment, as the perf model counts it. */
static void net_facts(const gp_cluster *c, const gp_placement *p, gp_place_summary *s)
{
	double slow = 0;
	int i, first = -1;

	s->net_levels = 0;
	s->net_ib = 1;
	s->net_tech = GP_TECH_NONE;
	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *part = &p->parts[i];
		double g;

		if (part->ngpus <= 0 || part->node < 0 || part->node >= c->nnodes)
			continue;
		g = gp_cluster_node_nic_gbps(c, part->node);
		if (g > 0 && (slow == 0 || g < slow)) {
			slow = g;
			s->net_tech = c->nodes[part->node].tech;
		}
		if (first < 0) {
			first = part->node;
		} else if (part->node != first && s->net_levels >= 0) {
			int w = gp_cluster_comm_weight(c, first, part->node);

			if (w < 0) {
				s->net_levels = -1;
			} else if (gp_place_weight_levels(w) >= s->net_levels) {
				s->net_levels = gp_place_weight_levels(w);
				s->net_ib = w < 100;
			}
		}
	}
}

/* The perf model's ring over a part's GPUs from the place cache's table
 * when it holds the same answer: the node type's topology and GPU model,
 * the GPUs in ascending order (the order names the hop); -1 otherwise. */
static double part_ring_cached(const gp_cluster *c, const gp_place_cache *pc,
			       const gp_place_part *part, gp_link *hop)
{
	const gp_place_type *pt;
	uint64_t mask = 0;
	int g;

	if (!pc || pc->cluster != c)
		return -1;
	pt = gp_place_type_of(pc, part->node);
	if (!pt->ring_gbs || !pt->topo || !pt->topo->links || pt->topo != &c->types[c->nodes[part->node].type].topo ||
	    pt->model != gp_cluster_node_model(c, part->node))
		return -1;
	for (g = 0; g < part->ngpus; g++) {
		if (part->gpus[g] < 0 || part->gpus[g] >= pt->ngpus || (g > 0 && part->gpus[g] <= part->gpus[g - 1]))
			return -1;
		mask |= 1ull << part->gpus[g];
	}
	return gp_place_ring_hop(pt, mask, hop);
}

/* The weakest intra-node hop: the first part whose ring is as slow as the
 * perf model's bw_intra (same function, same inputs, same value). */
static gp_link intra_hop(const gp_cluster *c, const gp_place_cache *pc, const gp_placement *p,
			 double bw_intra)
{
	gp_link hop = { GP_LINK_X, 0 };
	int i, a, b;

	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *part = &p->parts[i];
		const gp_node_type *t;
		double gbs;

		if (part->ngpus < 2)
			continue;
		t = &c->types[c->nodes[part->node].type];
		if ((gbs = part_ring_cached(c, pc, part, &hop)) < 0)
			gbs = gp_perf_ring_gbs(&t->topo, gp_cluster_node_model(c, part->node), part->gpus,
					       part->ngpus, &a, &b, &hop);
		if (gbs <= bw_intra)
			return hop;
	}
	return (gp_link){ GP_LINK_X, 0 };
}

/* A PS-Worker split leaves a parameter-server part and a worker part on
 * one node; the perf model counts every part as a node, so for its view
 * the server's GPUs join the worker part of their node (the server part
 * keeps its GPUs and holds -n in ngpus, which the model skips).  Undone
 * by unmerge; no allocation. */
static int merge_target(const gp_placement *p, int j)
{
	int i;

	for (i = 0; i < p->nparts; i++)
		if (i != j && p->parts[i].role == 0 && p->parts[i].node == p->parts[j].node &&
		    p->parts[i].ngpus > 0)
			return i;
	return -1;
}

/* Server part j's GPUs appended to the worker part of its node; their
 * count, 0 when j is no server part with such a worker part. */
static int join_ps(gp_placement *p, int j)
{
	gp_place_part *q = &p->parts[j];
	int i, g;

	if (q->role != 1 || q->ngpus <= 0 || (i = merge_target(p, j)) < 0 ||
	    p->parts[i].ngpus + q->ngpus > GP_TOPO_MAX_GPUS)
		return 0;
	for (g = 0; g < q->ngpus; g++)
		p->parts[i].gpus[p->parts[i].ngpus + g] = q->gpus[g];
	p->parts[i].ngpus += q->ngpus;
	return q->ngpus;
}

static void merge_ps(gp_placement *p)
{
	int j;

	for (j = 0; j < p->nparts; j++)
		if (join_ps(p, j))
			p->parts[j].ngpus = -p->parts[j].ngpus;
}

static void unmerge_ps(gp_placement *p)
{
	int j, i;

	for (j = 0; j < p->nparts; j++) {
		gp_place_part *q = &p->parts[j];

		if (q->role != 1 || q->ngpus >= 0)
			continue;
		q->ngpus = -q->ngpus;
		if ((i = merge_target(p, j)) >= 0)
			p->parts[i].ngpus -= q->ngpus;
	}
}

int gp_place_perf_view(const gp_placement *p, gp_placement *view)
{
	return gp_perf_ps_view(p, view);
}

void gp_place_summarize(const gp_cluster *c, gp_placement *p, gp_place_summary *s)
{
	gp_place_summarize_fields(c, p, s, 1);
}

void gp_place_summarize_fields(const gp_cluster *c, gp_placement *p, gp_place_summary *s,
			       int names)
{
	gp_place_summarize_pc(c, NULL, p, s, names);
}

void gp_place_summarize_pc(const gp_cluster *c, const gp_place_cache *pc, gp_placement *p,
			   gp_place_summary *s, int names)
{
	gp_error err = GP_ERROR_INIT;
	gp_perf_fabric f;
	gp_perf_coll_result r;
	int i;

	memset(s, 0, sizeof(*s));
	merge_ps(p);
	for (i = 0; i < p->nparts; i++)
		if (p->parts[i].ngpus > 0) {
			s->gpus += p->parts[i].ngpus;
			s->nodes++;
		}
	net_facts(c, p, s);
	if (gp_perf_fabric_of(c, p, &f, names ? s->detail : NULL, sizeof(s->detail), &err) != GP_OK) {
		unmerge_ps(p);
		if (names) {
			snprintf(s->name, sizeof(s->name), "NET:unconnected");
			snprintf(s->detail, sizeof(s->detail), "%s", err.msg);
		}
		s->net_levels = -1;
		p->bottleneck = GP_LINK_LEVELS;
		p->ring_bw_gbs = 0;
		return;
	}
	s->intra_gbs = f.bw_intra;
	s->net_gbs = f.bw_node_net;
	memset(&r, 0, sizeof(r));
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_RING, &f, 1e9, &r);
	s->ring_gbs = r.bw_gbps;
	/* The perf model's rule (gp_perf_fabric_of): the network is the
	 * bottleneck when its bandwidth is below the intra-node rings'. */
	if (f.nodes > 1 && f.bw_node_net < f.bw_intra) {
		s->bottleneck = GP_LINK_LEVELS + (s->net_levels > 0 ? s->net_levels : 0);
		if (names)
			snprintf(s->name, sizeof(s->name), "NET:%s:%d", gp_fabric_tech_name(s->net_tech),
				 s->net_levels);
	} else if (f.n < 2) {
		/* One GPU talks to no other: no link limits it. */
		s->bottleneck = GP_LINK_X;
		if (names)
			snprintf(s->name, sizeof(s->name), "none");
	} else {
		gp_link hop = intra_hop(c, pc, p, f.bw_intra);

		s->bottleneck = hop.level;
		if (names)
			gp_link_format(hop, s->name, sizeof(s->name));
	}
	unmerge_ps(p);
	p->bottleneck = s->bottleneck;
	p->ring_bw_gbs = s->ring_gbs;
}
