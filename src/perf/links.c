/* From a cluster and a placement to the inputs of the cost formulas: the
 * rings inside each node, the NICs a node can use (physical ports within
 * GPUDirect reach of the job's GPUs), the fabric's behaviour under load,
 * the switch hops. */
#include <math.h>
#include <stdint.h>
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

/* A NIC port's PCIe link: Gen4 x16 up to 200 Gb/s ports, Gen5 for 400,
 * Gen6 beyond (ConnectX-6, -7, -8). */
static double nic_pcie_gbs(double gbit)
{
	return gp_perf_pcie_gbs(gbit > 400 ? 6 : gbit > 200 ? 5 : 4, 16);
}

/* A node of a rail-optimized fabric: rate[k] the line rate of NIC k when
 * it is the NIC of a cabled rail in mask, else 0 (the node's other NICs
 * do not reach the rails).  Returns 0 for a node without rails (every NIC
 * reaches its switch). */
static int rail_rates(const gp_cluster *c, int node, uint64_t mask, int nnics, double *rate)
{
	const gp_node *n = &c->nodes[node];
	int r, k;

	if (!n->nrails)
		return 0;
	for (k = 0; k < nnics; k++)
		rate[k] = 0;
	for (r = 0; r < n->nrails && r < 64; r++) {
		if (!(mask >> r & 1))
			continue;
		k = gp_cluster_node_rail_nic(c, node, r);
		if (k >= 0 && k < nnics)
			rate[k] = gp_cluster_node_rail_gbps(c, node, r);
	}
	return 1;
}

/* gp_perf_node_net_gbs over the rails in mask (every rail: all ones). */
static double node_net_gbs(const gp_cluster *c, int node, const int *gpus, int ngpus,
			   uint64_t mask, int *nics)
{
	const gp_topo *t = &c->types[c->nodes[node].type].topo;
	double sw_gbit = gp_cluster_node_nic_gbps(c, node), total = 0;
	double card_sum[GP_TOPO_MAX_DEVICES], card_cap[GP_TOPO_MAX_DEVICES];
	double rate[GP_TOPO_MAX_DEVICES];
	unsigned char use[GP_TOPO_MAX_DEVICES] = { 0 };
	int k, i, used = 0, ng = t->ngpus;

	if (nics)
		*nics = 0;
	if (sw_gbit <= 0)
		return 0;
	if (t->nnics == 0) {
		/* No NIC listed: one port at the switch's rate. */
		if (nics)
			*nics = 1;
		return gp_perf_nic_gbs(sw_gbit);
	}
	/* Each NIC's line rate: the type's, else its rail leaf's (0: not on
	 * a cabled rail, unusable), else its switch's. */
	if (!rail_rates(c, node, mask, t->nnics, rate))
		for (k = 0; k < t->nnics; k++)
			rate[k] = sw_gbit;
	for (k = 0; k < t->nnics; k++)
		if (rate[k] > 0 && t->nics[k].gbps > 0)
			rate[k] = t->nics[k].gbps;
	/* GPUDirect RDMA reaches the NICs at PIX/PXB of a GPU (NCCL's
	 * default NCCL_NET_GDR_LEVEL), and a GPU takes its nearest ones
	 * only: a NIC at PIX of it before those at PXB, which are the
	 * rails of its neighbours (one NDR NIC per GPU on a DGX H100, a
	 * PCIe switch shared by two GPUs and two NICs on a DGX A100).  PXN
	 * lets the job's other GPUs use theirs over NVLink. */
	for (i = 0; i < ngpus && !t->no_gdr; i++) {
		int near = GP_LINK_LEVELS;

		for (k = 0; k < t->nnics; k++) {
			int lv = gp_topo_link(t, gpus[i], ng + k).level;

			if (rate[k] > 0 && (lv == GP_LINK_PIX || lv == GP_LINK_PXB) && lv < near)
				near = lv;
		}
		for (k = 0; k < t->nnics && near < GP_LINK_LEVELS; k++)
			if (!use[k] && rate[k] > 0 && gp_topo_link(t, gpus[i], ng + k).level == near) {
				use[k] = 1;
				used++;
			}
	}
	if (used) {
		for (k = 0; k < t->nnics; k++)
			card_sum[k] = 0, card_cap[k] = 0;
		for (k = 0; k < t->nnics; k++) {
			double gbit = rate[k];
			double r = gp_perf_nic_gbs(gbit);
			int card = t->nics[k].card >= 0 && t->nics[k].card < t->nnics
					   ? t->nics[k].card : -1;

			if (!use[k])
				continue;
			if (card < 0) {
				total += fmin(r, nic_pcie_gbs(gbit));
			} else {
				/* Ports of one card share its PCIe link. */
				card_sum[card] += r;
				card_cap[card] = fmax(card_cap[card], nic_pcie_gbs(gbit));
			}
		}
		for (k = 0; k < t->nnics; k++)
			total += fmin(card_sum[k], card_cap[k]);
		if (nics)
			*nics = used;
		return total;
	}
	/* No NIC within reach: each GPU's nearest NIC through host memory,
	 * never a front-end NIC that is SYS to every GPU while another is
	 * nearer; a NIC at SYS is reached over the link between the CPU
	 * sockets as well. */
	for (i = 0; i < ngpus; i++) {
		int best = -1, bl = GP_LINK_LEVELS;

		for (k = 0; k < t->nnics; k++) {
			int lv = gp_topo_link(t, gpus[i], ng + k).level;

			if (rate[k] <= 0)
				continue;
			if (lv < bl || (lv == bl && best >= 0 && use[best] && !use[k]))
				bl = lv, best = k;
		}
		if (best >= 0 && !use[best]) {
			double gbit = rate[best];
			double cap = GP_PERF_NIC_NOGDR_GBS;

			if (bl >= GP_LINK_SYS)
				cap = fmin(cap, gp_perf_socket_gbs(t));
			use[best] = 1;
			used++;
			total += fmin(gp_perf_nic_gbs(gbit), cap);
		}
	}
	if (nics)
		*nics = used;
	return total;
}

double gp_perf_node_net_gbs(const gp_cluster *c, int node, const int *gpus, int ngpus,
			    int *nics)
{
	return node_net_gbs(c, node, gpus, ngpus, ~(uint64_t)0, nics);
}

/* A fabric parameter of switch sw or its nearest ancestor that gives it;
 * which: 0 congestion, 2 SHARP.  < 0 when none. */
static double switch_param(const gp_cluster *c, int sw, int which)
{
	int guard = 0;

	while (sw >= 0 && sw < c->nswitches && guard++ < 1000) {
		const gp_switch *s = &c->switches[sw];
		double v = which == 0 ? s->congestion : s->sharp;

		if (v >= 0)
			return v;
		sw = s->parent;
	}
	return -1;
}

/* How switch sw spreads flows over its uplinks: its own or its nearest
 * ancestor's 'load_balancing' or 'adaptive_routing' (true: adaptive,
 * false: a static per-flow path), else the technology's default
 * (InfiniBand routes adaptively, RoCE and Ethernet hash flows: ECMP). */
static int switch_balancing(const gp_cluster *c, int sw)
{
	int guard = 0, tech = c->switches[sw].tech;

	while (sw >= 0 && sw < c->nswitches && guard++ < 1000) {
		const gp_switch *s = &c->switches[sw];

		if (s->load_balancing >= 0)
			return s->load_balancing;
		if (s->adaptive_routing >= 0)
			return s->adaptive_routing ? GP_LB_ADAPTIVE : GP_LB_ECMP;
		sw = s->parent;
	}
	return gp_fabric_tech_is_ib(tech) ? GP_LB_ADAPTIVE : GP_LB_ECMP;
}

double gp_perf_fabric_efficiency(const gp_cluster *c, int sw, int nodes, int levels)
{
	double cong;

	if (nodes <= 1 || sw < 0 || sw >= c->nswitches)
		return 1.0;
	cong = switch_param(c, sw, 0);
	if (cong >= 0)
		return nodes <= 2 ? 1.0 : 1.0 / (1.0 + cong * log2(nodes / 2.0));
	/* Flows collide only where they share uplinks chosen by a static
	 * hash: each switch tier crossed above the leaf adds the same
	 * share of time, whatever the number of nodes under one switch. */
	if (levels <= 1 || switch_balancing(c, sw) != GP_LB_ECMP)
		return 1.0;
	return 1.0 / (1.0 + GP_PERF_ECMP_COLLISION * (levels - 1));
}

/* Every GPU pair of the node (4 GPUs or more) is NV<links> with links =
 * the model's NVLink count: the links go to NVSwitches (direct meshes
 * show fewer per pair; a bridged pair is not a switch). */
static int on_nvswitch(const gp_topo *t, const gp_gpu_model *m)
{
	int i, j, n = t->ngpus;

	if (!m || m->nvlink_links <= 0 || n < 4)
		return 0;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			gp_link l = gp_topo_link(t, i, j);

			if (l.level != GP_LINK_NV || l.nvlinks != m->nvlink_links)
				return 0;
		}
	return 1;
}

/* What gp_perf_fabric_of gathers over the parts: the minima and flags of
 * the fabric, and which part holds the slowest ring and the slowest
 * network attachment (named only when a description is asked for). */
typedef struct fabric_acc {
	double bw_net, bw_gpu, bw_nvl, bw_p2p, bw_chan, chan_net;
	int prev, levels, all_ib, all_sharp, arch, nvsw, pcie;
	int intra_node, intra_a, intra_b;   /* slowest ring, -1 none */
	gp_link intra_hop;
	int net_node, net_nics;             /* slowest attachment, -1 none */
	uint64_t rails;                     /* rails every node with rails cables */
	int rails_lost;                     /* a node cables a rail outside rails */
	int no_ll;                          /* a node on GPUDirect-TCPXO */
} fabric_acc;

static int part_check(const gp_cluster *c, const gp_place_part *pp, gp_error *err)
{
	const gp_node *node;
	int k;

	if (pp->node < 0 || pp->node >= c->nnodes)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "placement names node %d of %d", pp->node, c->nnodes);
	node = &c->nodes[pp->node];
	for (k = 0; k < pp->ngpus; k++)
		if (pp->gpus[k] < 0 || pp->gpus[k] >= c->types[node->type].topo.ngpus)
			return gp_error_set(err, GP_EINPUT, NULL, 0, 0, "node '%s' has no GPU %d",
					    node->name, pp->gpus[k]);
	return GP_OK;
}

/* The rings inside one part's node. */
static void part_intra(const gp_cluster *c, const gp_place_part *pp, gp_perf_fabric *f,
		       fabric_acc *a)
{
	const gp_topo *t = &c->types[c->nodes[pp->node].type].topo;
	const gp_gpu_model *m = gp_cluster_node_model(c, pp->node);
	gp_link hop;
	int ha, hb, k;
	double ring, bcast;

	if (gp_perf_arch(m) < a->arch)
		a->arch = gp_perf_arch(m);
	ring = gp_perf_ring_gbs_bcast(t, m, pp->gpus, pp->ngpus, &ha, &hb, &hop, &bcast);
	if (pp->ngpus > 1) {
		if (gp_perf_link_alpha(hop) > f->alpha_intra)
			f->alpha_intra = gp_perf_link_alpha(hop);
		if (ha >= 0 && hb >= 0 && !gp_perf_p2p_ok(t, m, ha, hb))
			f->intra_shm = 1;
		if (hop.level != GP_LINK_NV)
			a->pcie = 1;
		if (!on_nvswitch(t, m))
			a->nvsw = 0;
		for (k = 0; k + 1 < pp->ngpus; k++) {
			int x = pp->gpus[k], y = pp->gpus[k + 1];

			a->bw_p2p = fmin(a->bw_p2p,
					 gp_perf_pair_gbs_socket(m, gp_topo_link(t, x, y),
								 gp_perf_p2p_ok(t, m, x, y),
								 gp_perf_socket_gbs(t)));
		}
		/* all peers at once: staged flows share a switch's uplink */
		a->bw_p2p = fmin(a->bw_p2p, gp_perf_staged_peers_gbs(t, m, pp->gpus, pp->ngpus));
	}
	if (m && m->nvlink_links > 0)
		a->bw_nvl = fmin(a->bw_nvl, m->nvlink_links * gp_perf_nvlink_gbs(m));
	else
		a->bw_nvl = 0;
	if (pp->ngpus > 1)
		a->bw_chan = fmin(a->bw_chan, hop.level == GP_LINK_NV ? gp_perf_nvlink_gbs(m) : ring);
	f->bw_intra_bcast = fmin(f->bw_intra_bcast, bcast);
	if (ring < f->bw_intra) {
		f->bw_intra = ring;
		a->intra_node = pp->node;
		a->intra_a = ha;
		a->intra_b = hb;
		a->intra_hop = hop;
	}
}

/* Network side of one part: the NICs within reach of the job's GPUs on
 * its node (a ring leaves the node once per channel) and the switch
 * levels from the previous part's node. */
static int part_net(const gp_cluster *c, const gp_place_part *pp, fabric_acc *a, gp_error *err)
{
	const gp_node *node = &c->nodes[pp->node];
	int nics = 0;
	double bw = node_net_gbs(c, pp->node, pp->gpus, pp->ngpus, a->rails, &nics);

	if (bw > 0 && bw < a->bw_net) {
		a->bw_net = bw;
		a->net_node = pp->node;
		a->net_nics = nics;
	}
	if (bw > 0)
		a->bw_gpu = fmin(a->bw_gpu, bw / pp->ngpus);
	if (bw > 0 && nics > 0)
		a->chan_net = fmin(a->chan_net, bw / nics);
	if (!gp_fabric_tech_is_ib(node->tech))
		a->all_ib = 0;
	/* Google's NCCL settings for GPUDirect-TCPXO (its plugin's
	 * nccl-env-profile.sh) give NCCL_PROTO=Simple,LL128. */
	if (node->tech == GP_TECH_TCPXO_200)
		a->no_ll = 1;
	if (node->sw < 0 || switch_param(c, node->sw, 2) != 1)
		a->all_sharp = 0;
	/* between two nodes with rails each rail has its own path
	 * (job_rails counted its levels) */
	if (a->prev >= 0 && a->prev != pp->node && !(node->nrails && c->nodes[a->prev].nrails)) {
		int w = gp_cluster_comm_weight(c, a->prev, pp->node);

		if (w < 0)
			return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					    "nodes '%s' and '%s' are not connected",
					    c->nodes[a->prev].name, node->name);
		if (switch_levels(w) > a->levels)
			a->levels = switch_levels(w);
	}
	a->prev = pp->node;
	return GP_OK;
}

/* Rail-optimized nodes: the rails every node of the placement with rails
 * cables, to leaves that connect it with the previous such node (a ring
 * per rail leaves each node on that rail's NIC), into a->rails, and the
 * switch levels the longest of those rails crosses.  Rails missing on
 * one node are lost to the whole job (its rail's ring would cross that
 * node on another rail's NIC, which then carries two). */
static int job_rails(const gp_cluster *c, const gp_placement *p, fabric_acc *a, gp_error *err)
{
	int i, r, prev = -1, levels = 0;
	uint64_t mask = ~(uint64_t)0, any = 0;

	for (i = 0; i < p->nparts; i++) {
		const gp_node *n = &c->nodes[p->parts[i].node];
		uint64_t own = 0;

		if (p->parts[i].ngpus <= 0 || !n->nrails || p->parts[i].node == prev)
			continue;
		for (r = 0; r < n->nrails && r < 64; r++)
			if (n->rails[r] >= 0)
				own |= (uint64_t)1 << r;
		mask &= own;
		any |= own;
		for (r = 0; prev >= 0 && r < 64; r++) {
			const gp_node *m = &c->nodes[prev];
			int w;

			if (!(mask >> r & 1))
				continue;
			w = gp_cluster_switch_weight(c, m->rails[r], n->rails[r]);
			if (w < 0)
				mask &= ~((uint64_t)1 << r);
			else if (switch_levels(w) > levels)
				levels = switch_levels(w);
		}
		if (prev >= 0 && !mask)
			return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					    "nodes '%s' and '%s' share no connected rail",
					    c->nodes[prev].name, n->name);
		prev = p->parts[i].node;
	}
	a->rails = mask;
	a->rails_lost = prev >= 0 && (any & ~mask) != 0;
	if (levels > a->levels)
		a->levels = levels;
	return GP_OK;
}

/* A job over several nodes: the fabric under load (the lowest efficiency
 * of the switches the job's nodes hang off) and the switch traversals.
 * Returns the efficiency. */
static double fabric_net(const gp_cluster *c, const gp_placement *p, gp_perf_fabric *f,
			 fabric_acc *a)
{
	double eff = 1.0;
	int i;

	for (i = 0; i < p->nparts; i++) {
		int node = p->parts[i].node;

		if (p->parts[i].ngpus > 0)
			eff = fmin(eff, gp_perf_fabric_efficiency(c, c->nodes[node].sw, f->nodes,
								   a->levels));
	}
	f->bw_node_net = a->bw_net * eff;
	a->bw_chan = fmin(a->bw_chan, a->chan_net * eff);
	f->bw_gpu_net = a->bw_gpu * eff;
	f->net_ib = a->all_ib;
	f->sharp = a->all_ib && a->all_sharp;
	/* NCCL's NET latency covers one switch; each further level adds a
	 * traversal up and one down. */
	f->net_switch_s = GP_PERF_SWITCH_S * 2 * (a->levels > 1 ? a->levels - 1 : 0);
	f->alpha_inter += f->net_switch_s;
	return eff;
}

/* The bottleneck in words: the slowest ring, or the slowest node
 * attachment when the network is below the rings.  A snapshot lists RDMA
 * NICs only: a node without one is taken to reach its switch through one
 * port, and the description says so. */
static void describe(const gp_cluster *c, const gp_perf_fabric *f, const fabric_acc *a,
		     double eff, char *out, size_t size)
{
	char desc[224] = "", lb[16];

	if (f->n <= 1) {
		snprintf(out, size, "none (single GPU)");
		return;
	}
	if (f->nodes > 1 && f->bw_node_net < f->bw_intra) {
		const gp_node *node = &c->nodes[a->net_node];

		if (node->nrails)
			/* each rail at its own leaf's rate */
			snprintf(desc, sizeof(desc), "network: %d rail NIC%s on %s%s (%.1f GB/s)",
				 a->net_nics, a->net_nics == 1 ? "" : "s", node->name,
				 a->rails_lost ? ", rails not cabled on every node left out" : "",
				 a->bw_net);
		else
			snprintf(desc, sizeof(desc), "network: %d x %s NIC on %s%s (%.1f GB/s)", a->net_nics,
				 gp_fabric_tech_name(node->tech), node->name,
				 c->types[node->type].topo.nnics > 0 ? "" : ", assumed: its snapshot lists no NIC",
				 a->bw_net);
		if (eff < 1.0 && strlen(desc) + 40 < sizeof(desc))
			snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc), ", x%.2f fabric load",
				 eff);
	} else if (a->intra_node >= 0) {
		/* 160: the size the ring's words always had */
		snprintf(desc, 160, "%s GPU%d-GPU%d on %s (%.1f GB/s)",
			 gp_link_format(a->intra_hop, lb, sizeof(lb)), a->intra_a, a->intra_b,
			 c->nodes[a->intra_node].name, f->bw_intra);
	}
	snprintf(out, size, "%s", desc);
}

/* gp_perf_fabric_of, the bottleneck named for collective coll (-1: any
 * but broadcast, whose ring leaves one hop idle). */
static int fabric_of_coll(const gp_cluster *c, const gp_placement *p, int coll, gp_perf_fabric *f,
			  char *bottleneck, size_t bsize, gp_error *err)
{
	fabric_acc a = { 1e300, 1e300, 1e300, 1e300, 1e300, 1e300, -1, 0, 1, 1, 99, 1, 0,
			 -1, 0, 0, { GP_LINK_X, 0 }, -1, 0, ~(uint64_t)0, 0, 0 };
	double eff = 1.0;
	int i, st;

	memset(f, 0, sizeof(*f));
	f->alpha_intra = GP_PERF_ALPHA_NVLINK_S;
	f->alpha_inter = GP_PERF_ALPHA_NET_S;
	f->bw_intra = 5000.0;
	f->bw_intra_bcast = 5000.0;
	for (i = 0; i < p->nparts; i++)
		if (p->parts[i].ngpus > 0 && (st = part_check(c, &p->parts[i], err)) != GP_OK)
			return st;
	if ((st = job_rails(c, p, &a, err)) != GP_OK)
		return st;
	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *pp = &p->parts[i];

		if (pp->ngpus <= 0)
			continue;
		if ((st = part_check(c, pp, err)) != GP_OK)
			return st;
		f->n += pp->ngpus;
		f->nodes++;
		if (pp->ngpus > f->per_node)
			f->per_node = pp->ngpus;
		part_intra(c, pp, f, &a);
		if ((st = part_net(c, pp, &a, err)) != GP_OK)
			return st;
	}
	f->arch = a.arch == 99 ? 0 : a.arch;
	f->intra_hw = a.pcie ? GP_PERF_HW_PCI : GP_PERF_HW_NVLINK;
	f->nvswitch = a.nvsw && f->per_node >= 2;
	f->bw_gpu_nvl = a.bw_nvl < 1e300 ? a.bw_nvl : 0;
	f->bw_p2p = a.bw_p2p < 1e300 ? a.bw_p2p : 0;
	if (f->nodes > 1) {
		if (a.bw_net >= 1e300)
			return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					    "placement spans %d nodes but none has a network attachment",
					    f->nodes);
		eff = fabric_net(c, p, f, &a);
	}
	f->bw_chan = a.bw_chan < 1e300 ? a.bw_chan : 0;
	f->net_nics = f->nodes > 1 ? a.net_nics : 0;
	f->no_ll = f->nodes > 1 && a.no_ll;
	if (bottleneck && bsize) {
		gp_perf_fabric g = *f;

		if (coll == GP_COLL_BROADCAST)
			g.bw_intra = f->bw_intra_bcast;
		describe(c, &g, &a, eff, bottleneck, bsize);
	}
	return GP_OK;
}

int gp_perf_fabric_of(const gp_cluster *c, const gp_placement *p, gp_perf_fabric *f,
		      char *bottleneck, size_t bsize, gp_error *err)
{
	return fabric_of_coll(c, p, -1, f, bottleneck, bsize, err);
}

int gp_perf_placement_collective(const gp_cluster *c, const gp_placement *p, int coll,
				 int algo, double bytes, gp_perf_coll_result *out,
				 gp_error *err)
{
	gp_perf_fabric f;
	int st;

	memset(out, 0, sizeof(*out));
	st = fabric_of_coll(c, p, coll, &f, out->bottleneck, sizeof(out->bottleneck), err);
	if (st)
		return st;
	gp_perf_coll_eval(coll, algo, &f, bytes, out);
	return GP_OK;
}
