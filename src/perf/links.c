/* From a cluster and a placement to the inputs of the cost formulas: the
 * rings inside each node, the NICs a node can use (physical ports within
 * GPUDirect reach of the job's GPUs), the fabric's behaviour under load,
 * the switch hops. */
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

/* A NIC port's PCIe link: Gen4 x16 up to 200 Gb/s ports, Gen5 for 400,
 * Gen6 beyond (ConnectX-6, -7, -8). */
static double nic_pcie_gbs(double gbit)
{
	return gp_perf_pcie_gbs(gbit > 400 ? 6 : gbit > 200 ? 5 : 4, 16);
}

double gp_perf_node_net_gbs(const gp_cluster *c, int node, const int *gpus, int ngpus,
			    int *nics)
{
	const gp_topo *t = &c->types[c->nodes[node].type].topo;
	double sw_gbit = gp_cluster_node_nic_gbps(c, node), total = 0;
	double card_sum[GP_TOPO_MAX_DEVICES], card_cap[GP_TOPO_MAX_DEVICES];
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
	/* GPUDirect RDMA reaches the NICs at PIX/PXB of a GPU (NCCL's
	 * default NCCL_NET_GDR_LEVEL); PXN lets the job's other GPUs use
	 * them over NVLink. */
	for (k = 0; k < t->nnics && !t->no_gdr; k++)
		for (i = 0; i < ngpus; i++) {
			int lv = gp_topo_link(t, gpus[i], ng + k).level;

			if (lv == GP_LINK_PIX || lv == GP_LINK_PXB) {
				use[k] = 1;
				used++;
				break;
			}
		}
	if (used) {
		for (k = 0; k < t->nnics; k++)
			card_sum[k] = 0, card_cap[k] = 0;
		for (k = 0; k < t->nnics; k++) {
			double gbit = t->nics[k].gbps > 0 ? t->nics[k].gbps : sw_gbit;
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
	 * nearer. */
	for (i = 0; i < ngpus; i++) {
		int best = -1, bl = GP_LINK_LEVELS;

		for (k = 0; k < t->nnics; k++) {
			int lv = gp_topo_link(t, gpus[i], ng + k).level;

			if (lv < bl || (lv == bl && best >= 0 && use[best] && !use[k]))
				bl = lv, best = k;
		}
		if (best >= 0 && !use[best]) {
			double gbit = t->nics[best].gbps > 0 ? t->nics[best].gbps : sw_gbit;

			use[best] = 1;
			used++;
			total += fmin(gp_perf_nic_gbs(gbit), GP_PERF_NIC_NOGDR_GBS);
		}
	}
	if (nics)
		*nics = used;
	return total;
}

/* A fabric parameter of switch sw or its nearest ancestor that gives it;
 * which: 0 congestion, 1 adaptive routing, 2 SHARP.  < 0 when none. */
static double switch_param(const gp_cluster *c, int sw, int which)
{
	int guard = 0;

	while (sw >= 0 && sw < c->nswitches && guard++ < 1000) {
		const gp_switch *s = &c->switches[sw];
		double v = which == 0 ? s->congestion : which == 1 ? s->adaptive_routing : s->sharp;

		if (v >= 0)
			return v;
		sw = s->parent;
	}
	return -1;
}

double gp_perf_fabric_efficiency(const gp_cluster *c, int sw, int nodes)
{
	double cong;

	if (nodes <= 2 || sw < 0 || sw >= c->nswitches)
		return 1.0;
	cong = switch_param(c, sw, 0);
	if (cong < 0) {
		if (gp_fabric_tech_is_ib(c->switches[sw].tech))
			cong = switch_param(c, sw, 1) == 0 ? GP_PERF_ROCE_CONGESTION : 0.0;
		else
			cong = GP_PERF_ROCE_CONGESTION;
	}
	return 1.0 / (1.0 + cong * log2(nodes / 2.0));
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

int gp_perf_fabric_of(const gp_cluster *c, const gp_placement *p, gp_perf_fabric *f,
		      char *bottleneck, size_t bsize, gp_error *err)
{
	char intra_desc[160] = "", net_desc[224] = "";
	double bw_intra = 5000.0, bw_net = 1e300, bw_gpu = 1e300, eff = 1.0;
	double bw_nvl = 1e300, bw_p2p = 1e300, bw_chan = 1e300, chan_net = 1e300;
	int i, prev = -1, levels = 0, all_ib = 1, all_sharp = 1, arch = 99;
	int nvsw = 1, pcie = 0;

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
		if (gp_perf_arch(m) < arch)
			arch = gp_perf_arch(m);
		ring = gp_perf_ring_gbs(t, m, pp->gpus, pp->ngpus, &a, &b, &hop);
		if (pp->ngpus > 1) {
			if (gp_perf_link_alpha(hop) > f->alpha_intra)
				f->alpha_intra = gp_perf_link_alpha(hop);
			if (hop.level != GP_LINK_NV)
				pcie = 1;
			if (!on_nvswitch(t, m))
				nvsw = 0;
			for (k = 0; k + 1 < pp->ngpus; k++) {
				int x = pp->gpus[k], y = pp->gpus[k + 1];

				bw_p2p = fmin(bw_p2p, gp_perf_pair_gbs(m, gp_topo_link(t, x, y),
								       gp_perf_p2p_ok(t, m, x, y)));
			}
		}
		if (m && m->nvlink_links > 0)
			bw_nvl = fmin(bw_nvl, m->nvlink_links * gp_perf_nvlink_gbs(m));
		else
			bw_nvl = 0;
		if (pp->ngpus > 1)
			bw_chan = fmin(bw_chan, hop.level == GP_LINK_NV ? gp_perf_nvlink_gbs(m) : ring);
		if (ring < bw_intra) {
			char lb[16];

			bw_intra = ring;
			snprintf(intra_desc, sizeof(intra_desc), "%s GPU%d-GPU%d on %s (%.1f GB/s)",
				 gp_link_format(hop, lb, sizeof(lb)), a, b, node->name, ring);
		}
		/* Network side: the NICs within reach of the job's GPUs on
		 * this node (a ring leaves the node once per channel).  A
		 * snapshot lists RDMA NICs only: a node without one is taken to
		 * reach its switch through one port, and the description says so. */
		{
			int nics = 0;
			double bw = gp_perf_node_net_gbs(c, pp->node, pp->gpus, pp->ngpus, &nics);

			if (bw > 0 && bw < bw_net) {
				bw_net = bw;
				snprintf(net_desc, sizeof(net_desc),
					 "network: %d x %s NIC on %s%s (%.1f GB/s)", nics,
					 gp_fabric_tech_name(node->tech), node->name,
					 t->nnics > 0 ? "" : ", assumed: its snapshot lists no NIC", bw);
			}
			if (bw > 0)
				bw_gpu = fmin(bw_gpu, bw / pp->ngpus);
			if (bw > 0 && nics > 0)
				chan_net = fmin(chan_net, bw / nics);
			if (!gp_fabric_tech_is_ib(node->tech))
				all_ib = 0;
			if (node->sw < 0 || switch_param(c, node->sw, 2) != 1)
				all_sharp = 0;
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
	f->arch = arch == 99 ? 0 : arch;
	f->intra_hw = pcie ? GP_PERF_HW_PCI : GP_PERF_HW_NVLINK;
	f->nvswitch = nvsw && f->per_node >= 2;
	f->bw_gpu_nvl = bw_nvl < 1e300 ? bw_nvl : 0;
	f->bw_p2p = bw_p2p < 1e300 ? bw_p2p : 0;
	if (f->nodes > 1) {
		if (bw_net >= 1e300)
			return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					    "placement spans %d nodes but none has a network attachment",
					    f->nodes);
		/* The fabric under load: the lowest efficiency of the
		 * switches the job's nodes hang off. */
		for (i = 0; i < p->nparts; i++) {
			int node = p->parts[i].node;

			if (p->parts[i].ngpus > 0)
				eff = fmin(eff, gp_perf_fabric_efficiency(c, c->nodes[node].sw,
									  f->nodes));
		}
		f->bw_node_net = bw_net * eff;
		bw_chan = fmin(bw_chan, chan_net * eff);
		f->bw_gpu_net = bw_gpu * eff;
		f->net_ib = all_ib;
		f->sharp = all_ib && all_sharp;
		/* NCCL's NET latency covers one switch; each further level adds a
		 * traversal up and one down. */
		f->net_switch_s = GP_PERF_SWITCH_S * 2 * (levels > 1 ? levels - 1 : 0);
		f->alpha_inter += f->net_switch_s;
		if (eff < 1.0 && strlen(net_desc) + 40 < sizeof(net_desc))
			snprintf(net_desc + strlen(net_desc), sizeof(net_desc) - strlen(net_desc),
				 ", x%.2f fabric load", eff);
	}
	f->bw_intra = bw_intra;
	f->bw_chan = bw_chan < 1e300 ? bw_chan : 0;
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
