/* Worker replacement: replace a failed member of a distributed job (replace.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/memory.h"
#include "gpuplan/perf/perf.h"
#include "gpuplan/place/replace.h"
#include "place_int.h"

#define LOCAL_GBS 5000.0   /* NCCL's LOC_BW: a member of one GPU */

const char *gp_replace_status_name(int status)
{
	switch (status) {
	case GP_REPLACE_REPLACED: return "replaced";
	case GP_REPLACE_SHRUNK: return "shrunk";
	default: return "none";
	}
}

void gp_replace_result_init(gp_replace_result *r)
{
	memset(r, 0, sizeof(*r));
	r->status = GP_REPLACE_NONE;
	r->failed_node = r->copy_from = r->chosen.node = -1;
	gp_placement_init(&r->removed);
	gp_placement_init(&r->added);
}

void gp_replace_result_release(gp_replace_result *r)
{
	if (!r)
		return;
	free(r->cands);
	gp_placement_release(&r->removed);
	gp_placement_release(&r->added);
	memset(r, 0, sizeof(*r));
}

/* One member of the job as the source document sees it: the job's GPUs on one node. */
typedef struct member {
	int node;
	int role;               /* 0 worker, 1 parameter server */
	int ngpus;
	int gpus[GP_TOPO_MAX_GPUS];
	double compute;         /* seconds per iteration on one of its GPUs */
	double net;             /* GB/s of the NICs it can use, 0 unattached */
	double intra;           /* GB/s of its own ring, LOCAL_GBS for one GPU */
	double peak;            /* TFLOPS in the job's precision */
} member;

typedef struct rctx {
	const gp_policy_ctx *ctx;
	const gp_job *job;
	double bytes;           /* P: parameter (gradient) bytes */
	double *type_compute;   /* per node type, < 0 not yet known */
	int modelled;
	double ref_peak;        /* relative mode: 1 s on this peak */
	member *m;              /* scratch member array */
	int nm, cap;
	member *base;           /* the members as they were, in ring order */
	int nbase, fi;          /* fi: the failed member */
	uint64_t lost_mask;     /* its GPUs lost */
	int survivors, surv_node, nworkers, nservers;
} rctx;

static double peak_of(const gp_cluster *c, int node, const gp_job *job)
{
	const gp_gpu_model *g = gp_cluster_node_model(c, node);

	if (!g)
		return 0;
	if (job->precision == GP_PREC_FP32 || g->fp16_tflops <= 0)
		return g->fp32_tflops;
	return g->fp16_tflops;
}

/* Per-iteration compute of one GPU of node's model: the perf model on a
 * one-GPU placement (only the compute part is used). */
static double compute_of(rctx *r, int node)
{
	const gp_cluster *c = r->ctx->cluster;
	int t = c->nodes[node].type;

	if (r->type_compute[t] < 0) {
		double v = -1;

		if (r->modelled) {
			gp_placement one;
			gp_place_part *part;
			gp_perf_iter it;

			gp_placement_init(&one);
			part = gp_placement_add(&one, node);
			part->ngpus = 1;
			part->gpus[0] = 0;
			if (gp_perf_iteration(c, r->job, &one, &it, NULL) == GP_OK && it.compute_s > 0)
				v = it.compute_s;
			gp_placement_release(&one);
		}
		if (v < 0) {
			double pk = peak_of(c, node, r->job);

			v = pk > 0 && r->ref_peak > 0 ? r->ref_peak / pk : 1.0;
		}
		r->type_compute[t] = v;
	}
	return r->type_compute[t];
}

static double net_of(const gp_cluster *c, int node, int ngpus)
{
	const gp_topo *t = &c->types[c->nodes[node].type].topo;
	int nics = t->nnics > 0 ? t->nnics : 1;
	double gbit = gp_cluster_node_nic_gbps(c, node);

	return gbit > 0 ? (ngpus < nics ? ngpus : nics) * gp_perf_nic_gbs(gbit) : 0.0;
}

static double intra_of(const gp_cluster *c, int node, const int *gpus, int ngpus)
{
	const gp_topo *t = &c->types[c->nodes[node].type].topo;
	gp_link l;
	int a, b;

	if (ngpus <= 1)
		return LOCAL_GBS;
	return gp_perf_ring_gbs(t, gp_cluster_node_model(c, node), gpus, ngpus, &a, &b, &l);
}

static void member_fill(rctx *r, member *m)
{
	const gp_cluster *c = r->ctx->cluster;

	m->compute = compute_of(r, m->node);
	m->net = net_of(c, m->node, m->ngpus);
	m->intra = intra_of(c, m->node, m->gpus, m->ngpus);
	m->peak = peak_of(c, m->node, r->job);
}

/* GB/s between two members: inside one node the link between their
 * first GPUs, else the slower of their NIC sets; 0 when not connected. */
static double link_gbs(const gp_cluster *c, const member *a, const member *b)
{
	if (a->node == b->node) {
		const gp_topo *t = &c->types[c->nodes[a->node].type].topo;

		if (a->ngpus <= 0 || b->ngpus <= 0)
			return LOCAL_GBS;
		return gp_perf_link_gbs(gp_cluster_node_model(c, a->node),
					gp_topo_link(t, a->gpus[0], b->gpus[0]));
	}
	if (gp_cluster_comm_weight(c, a->node, b->node) < 0)
		return 0;
	return a->net < b->net ? a->net : b->net;
}

/* GB/s between a worker and a parameter server: on one node the perf
 * model's ring over the GPUs of both (what a placement's summary rates
 * when it merges the server's GPUs into the worker part of their node,
 * the worker's GPUs first), so the bottleneck between the server's GPUs
 * and the worker's, not the link of their first GPUs; across nodes as
 * link_gbs. */
static double ps_link_gbs(const gp_cluster *c, const member *w, const member *s)
{
	int gpus[GP_TOPO_MAX_GPUS], n = 0, i, a, b;
	gp_link l;

	if (w->node != s->node || w->ngpus <= 0 || s->ngpus <= 0)
		return link_gbs(c, w, s);
	for (i = 0; i < w->ngpus && n < GP_TOPO_MAX_GPUS; i++)
		gpus[n++] = w->gpus[i];
	for (i = 0; i < s->ngpus && n < GP_TOPO_MAX_GPUS; i++)
		gpus[n++] = s->gpus[i];
	return gp_perf_ring_gbs(&c->types[c->nodes[w->node].type].topo, gp_cluster_node_model(c, w->node),
				gpus, n, &a, &b, &l);
}

/* GB/s of the model-state copy from member a to member b: across nodes
 * as link_gbs; on one node each of b's GPUs takes the state from the GPU
 * of a with the fastest path to it, rated as the perf model rates one GPU
 * to one peer (NVLink by its links, PCIe with or without peer access, the
 * socket link), and the copy lasts as long as the slowest of those. */
static double copy_gbs(const gp_cluster *c, const member *a, const member *b)
{
	const gp_topo *t;
	const gp_gpu_model *m;
	double slow = INFINITY;
	int i, k;

	if (a->node != b->node || a->ngpus <= 0 || b->ngpus <= 0)
		return link_gbs(c, a, b);
	t = &c->types[c->nodes[a->node].type].topo;
	m = gp_cluster_node_model(c, a->node);
	for (k = 0; k < b->ngpus; k++) {
		double best = 0;

		for (i = 0; i < a->ngpus; i++) {
			int x = a->gpus[i], y = b->gpus[k];
			double g = gp_perf_pair_gbs_socket(m, gp_topo_link(t, x, y),
							   gp_perf_p2p_ok(t, m, x, y),
							   gp_perf_socket_gbs(t));

			if (g > best)
				best = g;
		}
		if (best < slow)
			slow = best;
	}
	return slow;
}

static double xfer(double bytes, double gbs)
{
	if (bytes <= 0)
		return 0;
	return gbs > 0 ? bytes / (gbs * 1e9) : INFINITY;
}

/* The source document's predicted iteration time of members m[0..n): the slowest
 * member's compute + max(P / up, P / down). */
static double job_time(const rctx *r, const member *m, int n)
{
	const gp_cluster *c = r->ctx->cluster;
	double worst = 0, P = r->bytes;
	int i, j, nw = 0, ns = 0;

	for (i = 0; i < n; i++)
		m[i].role ? ns++ : nw++;
	if (r->job->type == GP_JOB_PS_WORKER && ns > 0) {
		for (i = 0; i < n; i++) {
			double t, bw = INFINITY;

			if (m[i].role == 1) {
				/* A server moves W x P / S: from a worker on
				 * its node at their ring's rate (no network
				 * crossed), from the others over its own
				 * NICs; as slow as the slower of those. */
				double share = P * nw / ns, own = m[i].net > 0 ? m[i].net : m[i].intra;

				for (j = 0; j < n; j++)
					if (m[j].role == 0) {
						double b = m[j].node == m[i].node
								   ? ps_link_gbs(c, &m[j], &m[i]) : own;

						if (b < bw)
							bw = b;
					}
				t = xfer(share, bw);
			} else {
				for (j = 0; j < n; j++)
					if (m[j].role == 1) {
						double b = ps_link_gbs(c, &m[i], &m[j]);

						if (b < bw)
							bw = b;
					}
				if (m[i].ngpus > 1 && m[i].intra < bw)
					bw = m[i].intra;
				t = m[i].compute + xfer(P, bw);
			}
			if (t > worst)
				worst = t;
		}
		return worst;
	}
	for (i = 0; i < n; i++) {
		double up, down, t;

		if (n == 1) {
			up = down = m[i].intra;
		} else {
			const member *next = &m[(i + 1) % n], *prev = &m[(i + n - 1) % n];

			up = link_gbs(c, &m[i], next);
			down = link_gbs(c, prev, &m[i]);
			if (m[i].intra < up)
				up = m[i].intra;
			if (m[i].intra < down)
				down = m[i].intra;
		}
		t = m[i].compute;
		if (n > 1 || m[i].ngpus > 1) {
			double cu = xfer(P, up), cd = xfer(P, down);

			t += cu > cd ? cu : cd;
		}
		if (t > worst)
			worst = t;
	}
	return worst;
}

static member *grow(rctx *r, int n)
{
	if (n > r->cap) {
		r->cap = n + 8;
		r->m = gp_xrealloc(r->m, (size_t)r->cap * sizeof(*r->m));
	}
	return r->m;
}

/* Add GPUs to a member (kept ascending). */
static void member_merge(member *m, const int *gpus, int n)
{
	int i, j;

	for (i = 0; i < n && m->ngpus < GP_TOPO_MAX_GPUS; i++) {
		for (j = m->ngpus; j > 0 && m->gpus[j - 1] > gpus[i]; j--)
			m->gpus[j] = m->gpus[j - 1];
		m->gpus[j] = gpus[i];
		m->ngpus++;
	}
}

/* Cand better than best?  Eligible ones by least peak, the others by
 * least time; node order breaks ties (the scan is in node order, so a
 * strict comparison keeps the first). */
static int better(const gp_replace_cand *a, const gp_replace_cand *b)
{
	if (a->eligible != b->eligible)
		return a->eligible;
	if (a->eligible) {
		if (a->peak_tflops != b->peak_tflops)
			return a->peak_tflops < b->peak_tflops;
		return a->iteration_s < b->iteration_s;
	}
	if (a->iteration_s != b->iteration_s)
		return a->iteration_s < b->iteration_s;
	return a->peak_tflops < b->peak_tflops;
}

/* The members as they were, in ring order, and the failed member's lost
 * GPUs (into out); an error when the job uses no failed GPU. */
static int base_members(rctx *r, const gp_placement *p, uint64_t failed_mask,
			gp_replace_result *out, gp_error *err)
{
	const gp_cluster *c = r->ctx->cluster;
	int i, g, failed_node = out->failed_node;

	r->base = gp_xmalloc((size_t)(p->nparts > 0 ? p->nparts : 1) * sizeof(*r->base));
	r->fi = -1;
	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *part = &p->parts[i];
		member *m;

		if (part->ngpus <= 0)
			continue;
		m = &r->base[r->nbase++];
		memset(m, 0, sizeof(*m));
		m->node = part->node;
		m->role = part->role;
		m->ngpus = part->ngpus;
		memcpy(m->gpus, part->gpus, (size_t)part->ngpus * sizeof(int));
		if (part->node == failed_node && r->fi < 0) {
			for (g = 0; g < part->ngpus; g++)
				if (!failed_mask || (failed_mask >> part->gpus[g] & 1)) {
					out->failed_gpus[out->nfailed++] = part->gpus[g];
					r->lost_mask |= 1ull << part->gpus[g];
				}
			if (out->nfailed)
				r->fi = r->nbase - 1;
		}
	}
	if (r->fi < 0)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "job '%s' uses no failed GPU of node '%s'",
				    r->job->id ? r->job->id : "?", c->nodes[failed_node].name);
	return GP_OK;
}

/* Is the perf model usable for this job?  Try the failed member's GPU.
 * Then the iteration time before the failure and the model state's size. */
static void time_before(rctx *r, const gp_replace_opts *opts, gp_replace_result *out)
{
	const gp_cluster *c = r->ctx->cluster;
	const gp_job *job = r->job;
	gp_placement one;
	gp_place_part *part;
	gp_perf_iter it;
	int i;

	r->ref_peak = peak_of(c, out->failed_node, job);
	gp_placement_init(&one);
	part = gp_placement_add(&one, out->failed_node);
	part->ngpus = 1;
	part->gpus[0] = out->failed_gpus[0];
	if (gp_perf_iteration(c, job, &one, &it, NULL) != GP_OK || !(it.compute_s > 0))
		r->modelled = 0;
	gp_placement_release(&one);
	if (!r->modelled)
		r->bytes = 0;
	out->modelled = r->modelled;
	for (i = 0; i < r->nbase; i++)
		member_fill(r, &r->base[i]);
	out->iteration_s_before = opts->before_s > 0 ? opts->before_s
						    : job_time(r, r->base, r->nbase);
	if (job->more->model.params > 0) {
		double w, gr, o;

		gp_memory_bytes_per_param(job->optimizer, job->precision, &w, &gr, &o);
		out->state_bytes = job->more->model.params * (w + o);
	}
}

/* The failed member after the failure (what is left of it), and the
 * surviving members by role. */
static void drop_lost(rctx *r)
{
	member *f = &r->base[r->fi];
	int g, i, keep = 0;

	for (g = 0; g < f->ngpus; g++)
		if (!(r->lost_mask >> f->gpus[g] & 1))
			f->gpus[keep++] = f->gpus[g];
	f->ngpus = keep;
	if (keep)
		member_fill(r, f);
	r->surv_node = -1;
	for (i = 0; i < r->nbase; i++)
		if (r->base[i].ngpus > 0) {
			r->survivors++;
			r->surv_node = r->base[i].node;
			r->base[i].role ? r->nservers++ : r->nworkers++;
		}
}

/* What the job gives back: the lost GPUs; the whole part (CPUs, memory,
 * VF) when nothing of it is left. */
static void give_back(const rctx *r, const gp_placement *p, gp_replace_result *out)
{
	const gp_place_part *src = NULL;
	gp_place_part *rm;
	int i;

	for (i = 0; i < p->nparts; i++)
		if (p->parts[i].node == out->failed_node && p->parts[i].ngpus > 0) {
			src = &p->parts[i];
			break;
		}
	rm = gp_placement_add(&out->removed, out->failed_node);
	/* src is NULL only if the failed node held none of the job's GPUs */
	rm->milli = src ? src->milli : 0;
	rm->mem_mib = src ? src->mem_mib : 0;
	rm->role = src ? src->role : 0;
	memcpy(rm->gpus, out->failed_gpus, (size_t)out->nfailed * sizeof(int));
	rm->ngpus = out->nfailed;
	if (r->base[r->fi].ngpus == 0) {
		rm->cpu_milli = src->cpu_milli;
		rm->host_mem_mib = src->host_mem_mib;
		rm->nic = src->nic;
		rm->vf = src->vf;
		rm->numa = src->numa;
		if (src->ncpus > 0) {
			out->removed.cpu_pool = gp_xmalloc((size_t)src->ncpus * sizeof(int));
			out->removed.cpu_cap = out->removed.cpu_len = src->ncpus;
			memcpy(out->removed.cpu_pool, src->cpus, (size_t)src->ncpus * sizeof(int));
			rm->cpus = out->removed.cpu_pool;
			rm->ncpus = src->ncpus;
		}
	}
}

/* The surviving member a replacement on node joins: the job's last
 * member there of the failed member's role that still has GPUs; -1 none
 * (the replacement is a member of its own). */
static int merge_target(const rctx *r, int node)
{
	int i, merge = -1;

	for (i = 0; i < r->nbase; i++)
		if (r->base[i].ngpus > 0 && r->base[i].node == node &&
		    r->base[i].role == r->base[r->fi].role)
			merge = i;
	return merge;
}

/* The members with the candidate in the failed member's place, into r->m:
 * merged into the job's part on that node when there is one of the same
 * role.  Returns their count. */
static int cand_members(rctx *r, const gp_replace_cand *cand)
{
	const member *base = r->base;
	member cm;
	int i, fi = r->fi, merge = merge_target(r, cand->node), nm = 0;

	for (i = 0; i < r->nbase; i++) {
		if (base[i].ngpus == 0 && i != fi)
			continue;
		if (i == fi && merge < 0) {
			if (base[fi].ngpus > 0)
				r->m[nm++] = base[fi];
			memset(&cm, 0, sizeof(cm));
			cm.node = cand->node;
			cm.role = base[fi].role;
			cm.ngpus = cand->ngpus;
			memcpy(cm.gpus, cand->gpus, (size_t)cand->ngpus * sizeof(int));
			member_fill(r, &cm);
			r->m[nm++] = cm;
			continue;
		}
		if (base[i].ngpus == 0)
			continue;
		r->m[nm] = base[i];
		if (i == merge) {
			member_merge(&r->m[nm], cand->gpus, cand->ngpus);
			member_fill(r, &r->m[nm]);
		}
		nm++;
	}
	return nm;
}

/* Node n as a candidate: as many GPUs as were lost that fit the job, on a
 * node connected to the survivors, and the job's time there; 0 when n is
 * no candidate. */
static int candidate(rctx *r, gp_place_cache *pc, int n, const gp_replace_result *out,
		     gp_replace_cand *cand)
{
	const gp_policy_ctx *ctx = r->ctx;
	const gp_cluster *c = ctx->cluster;
	const gp_job *job = r->job;
	int i, cnt, k = out->nfailed, merge;
	uint64_t mask, grp, join = 0;

	if (ctx->alloc->node_state[n] != GP_NODE_UP)
		return 0;
	if (!gp_place_may_span(job) && n != r->surv_node)
		return 0;
	if (c->nodes[n].ngpus < k)
		return 0;
	mask = gp_place_fit_mask(ctx, n, job, &cnt);
	if (n == out->failed_node)
		mask &= ~r->lost_mask;
	if (gp_popcount64(mask) < k || !gp_place_host_fits(ctx, n, job, k))
		return 0;
	/* Connected to the survivors (one tree is enough: weights are
	 * transitive within a tree). */
	for (i = 0; i < r->nbase; i++)
		if (r->base[i].ngpus > 0 && r->base[i].node != n &&
		    gp_cluster_comm_weight(c, n, r->base[i].node) < 0)
			return 0;
	/* The GPUs whose ring the perf model rates fastest, as bw-max ranks
	 * GPU sets; joining a surviving member on n, its ring with them. */
	if ((merge = merge_target(r, n)) >= 0)
		for (i = 0; i < r->base[merge].ngpus; i++)
			join |= 1ull << r->base[merge].gpus[i];
	grp = gp_place_best_join(gp_place_type_of(pc, n), join, mask, k, GP_GROUP_BW);
	if (!grp)
		return 0;
	memset(cand, 0, sizeof(*cand));
	cand->node = n;
	while (grp && cand->ngpus < GP_TOPO_MAX_GPUS) {
		cand->gpus[cand->ngpus++] = __builtin_ctzll(grp);
		grp &= grp - 1;
	}
	cand->iteration_s = job_time(r, r->m, cand_members(r, cand));
	if (!isfinite(cand->iteration_s))
		return 0;
	cand->peak_tflops = peak_of(c, n, job);
	cand->eligible = cand->iteration_s <= out->iteration_s_before * (1 + 1e-9);
	return 1;
}

/* The chosen candidate: the part added, and the survivor with the fastest
 * link to it, which the model state is copied from. */
static void take_best(rctx *r, gp_place_cache *pc, const gp_replace_cand *best,
		      gp_replace_result *out)
{
	gp_policy_ctx quiet = *r->ctx;
	gp_place_part *part;
	member cm;
	uint64_t m = 0;
	double bw = 0;
	int g, i;

	out->status = GP_REPLACE_REPLACED;
	out->chosen = *best;
	out->iteration_s_after = best->iteration_s;
	for (g = 0; g < best->ngpus; g++)
		m |= 1ull << best->gpus[g];
	quiet.explain = NULL;
	part = gp_place_add_part(&out->added, best->node, m, r->job);
	part->role = r->base[r->fi].role;
	gp_place_finish(&quiet, pc, r->job, &out->added, -1);
	memset(&cm, 0, sizeof(cm));
	cm.node = best->node;
	cm.ngpus = best->ngpus;
	memcpy(cm.gpus, best->gpus, (size_t)best->ngpus * sizeof(int));
	member_fill(r, &cm);
	for (i = 0; i < r->nbase; i++) {
		double b;

		/* Never from the node reported failed, even from its GPUs that
		 * still answer: its copy of the model may be what broke. */
		if (r->base[i].ngpus == 0 || r->base[i].node == out->failed_node)
			continue;
		b = copy_gbs(r->ctx->cluster, &r->base[i], &cm);
		if (b > bw) {
			bw = b;
			out->copy_from = r->base[i].node;
		}
	}
	out->copy_s = xfer(out->state_bytes, bw);
	snprintf(out->reason, sizeof(out->reason), "%s",
		 best->eligible ? "the eligible candidate with the least peak FLOPS"
				: "no candidate keeps the iteration time: the fastest one");
}

/* No candidate: the ring is rebuilt with the survivors, unless a PS job
 * has lost its last worker or server. */
static void no_candidate(rctx *r, gp_replace_result *out)
{
	int i, nm = 0;

	if (r->job->type == GP_JOB_PS_WORKER && (r->nworkers == 0 || r->nservers == 0)) {
		snprintf(out->reason, sizeof(out->reason),
			 "no idle candidate, and the survivors lack a %s",
			 r->nworkers == 0 ? "worker" : "parameter server");
		return;
	}
	out->status = GP_REPLACE_SHRUNK;
	for (i = 0; i < r->nbase; i++)
		if (r->base[i].ngpus > 0)
			r->m[nm++] = r->base[i];
	out->iteration_s_after = job_time(r, r->m, nm);
	snprintf(out->reason, sizeof(out->reason),
		 "no idle candidate: the ring is rebuilt with the %d surviving member(s)",
		 r->survivors);
}

int gp_replace_decide(const gp_policy_ctx *ctx, const gp_job *job, const gp_placement *p,
		      int failed_node, uint64_t failed_mask, const gp_replace_opts *opts,
		      gp_replace_result *out, gp_error *err)
{
	static const gp_replace_opts defaults = { 0, 0 };
	const gp_cluster *c = ctx->cluster;
	gp_place_cache *tmp = NULL, *pc;
	gp_replace_cand best, cand;
	rctx r;
	int i, n, st, have = 0;

	if (!opts)
		opts = &defaults;
	gp_replace_result_release(out);
	gp_replace_result_init(out);
	out->failed_node = failed_node;
	if (failed_node < 0 || failed_node >= c->nnodes)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0, "failed node %d out of range",
				    failed_node);
	memset(&r, 0, sizeof(r));
	r.ctx = ctx;
	r.job = job;
	r.bytes = job->more->model.params > 0
			  ? job->more->model.params * (job->precision == GP_PREC_FP32 ? 4 : 2) : 0;
	r.modelled = 1;
	r.type_compute = gp_xmalloc((size_t)(c->ntypes > 0 ? c->ntypes : 1) * sizeof(double));
	for (i = 0; i < c->ntypes; i++)
		r.type_compute[i] = -1;
	if ((st = base_members(&r, p, failed_mask, out, err)))
		goto done;
	time_before(&r, opts, out);
	drop_lost(&r);
	give_back(&r, p, out);
	if (r.survivors == 0) {
		snprintf(out->reason, sizeof(out->reason),
			 "no surviving member holds the model state: restart from a checkpoint");
		goto done;
	}
	/* Candidates, in node order. */
	pc = gp_place_cache_get(ctx, &tmp);
	grow(&r, r.nbase + 1);
	memset(&best, 0, sizeof(best));
	for (n = 0; n < c->nnodes; n++) {
		if (!candidate(&r, pc, n, out, &cand))
			continue;
		out->considered++;
		if (opts->keep_candidates) {
			GP_GROW(out->cands, out->cap, out->ncands + 1);
			out->cands[out->ncands++] = cand;
		}
		if (!have || better(&cand, &best)) {
			best = cand;
			have = 1;
		}
	}
	if (have)
		take_best(&r, pc, &best, out);
	else
		no_candidate(&r, out);
	if (tmp)
		gp_place_cache_free(tmp);
done:
	free(r.base);
	free(r.m);
	free(r.type_compute);
	return st;
}

void gp_replace_rebuild(const gp_placement *p, const gp_replace_result *r, gp_placement *out)
{
	const gp_place_part *add = r->status == GP_REPLACE_REPLACED && r->added.nparts ?
				   &r->added.parts[0] : NULL;
	uint64_t lost = 0;
	int i, g, ncpus = 0, merged = 0, failed_seen = 0;

	gp_placement_clear(out);
	for (g = 0; g < r->nfailed; g++)
		lost |= 1ull << r->failed_gpus[g];
	for (i = 0; i < p->nparts; i++)
		ncpus += p->parts[i].ncpus;
	if (add)
		ncpus += add->ncpus;
	if (ncpus > out->cpu_cap) {
		out->cpu_pool = gp_xrealloc(out->cpu_pool, (size_t)ncpus * sizeof(int));
		out->cpu_cap = ncpus;
	}
	out->cpu_len = 0;
	/* Merge target: the job's part of the same role on the new node. */
	for (i = 0; add && i < p->nparts; i++) {
		const gp_place_part *s = &p->parts[i];
		int left = s->ngpus;

		if (s->node == r->failed_node)
			for (g = 0; g < s->ngpus; g++)
				left -= (int)(lost >> s->gpus[g] & 1);
		if (s->node == add->node && s->role == add->role && left > 0)
			merged = 1;
	}
	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *s = &p->parts[i];
		gp_place_part *d;
		int is_failed = s->node == r->failed_node && s->ngpus > 0 && !failed_seen;

		if (is_failed)
			failed_seen = 1;
		d = gp_placement_add(out, s->node);
		*d = *s;
		d->cpus = NULL;
		d->ncpus = 0;
		if (is_failed) {
			int keep = 0;

			for (g = 0; g < s->ngpus; g++)
				if (!(lost >> s->gpus[g] & 1))
					d->gpus[keep++] = s->gpus[g];
			d->ngpus = keep;
			if (keep == 0) {
				out->nparts--;
				d = NULL;
			}
		}
		if (d && s->ncpus > 0) {
			d->cpus = out->cpu_pool + out->cpu_len;
			memcpy(d->cpus, s->cpus, (size_t)s->ncpus * sizeof(int));
			d->ncpus = s->ncpus;
			out->cpu_len += s->ncpus;
		}
		if (d && add && merged && s->node == add->node && s->role == add->role &&
		    !(is_failed && d->ngpus == 0)) {
			member m;

			m.ngpus = d->ngpus;
			memcpy(m.gpus, d->gpus, (size_t)d->ngpus * sizeof(int));
			member_merge(&m, add->gpus, add->ngpus);
			d->ngpus = m.ngpus;
			memcpy(d->gpus, m.gpus, (size_t)m.ngpus * sizeof(int));
			d->cpu_milli += add->cpu_milli;
			d->host_mem_mib += add->host_mem_mib;
			if (add->ncpus > 0) {
				/* The part's CPUs are the last copied: extend them. */
				memcpy(out->cpu_pool + out->cpu_len, add->cpus,
				       (size_t)add->ncpus * sizeof(int));
				if (!d->cpus)
					d->cpus = out->cpu_pool + out->cpu_len;
				d->ncpus += add->ncpus;
				out->cpu_len += add->ncpus;
			}
			merged = 2;
		}
		if (is_failed && add && merged == 0) {
			gp_place_part *a = gp_placement_add(out, add->node);
			int *cp = NULL;

			if (add->ncpus > 0) {
				cp = out->cpu_pool + out->cpu_len;
				memcpy(cp, add->cpus, (size_t)add->ncpus * sizeof(int));
				out->cpu_len += add->ncpus;
			}
			*a = *add;
			a->cpus = cp;
		}
	}
}

int gp_replace_job_placement(const gp_state *s, const gp_job *job, gp_placement *out)
{
	size_t i;
	int n = 0, ncpus = 0;

	gp_placement_clear(out);
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->entries[i].job, job->id))
			ncpus += s->entries[i].ncpus;
	if (ncpus > out->cpu_cap) {
		out->cpu_pool = gp_xrealloc(out->cpu_pool, (size_t)ncpus * sizeof(int));
		out->cpu_cap = ncpus;
	}
	out->cpu_len = 0;
	for (i = 0; i < s->n; i++) {
		const gp_state_entry *e = &s->entries[i];
		gp_place_part *part;

		if (strcmp(e->job, job->id))
			continue;
		part = gp_placement_add(out, e->node);
		part->ngpus = e->ngpus;
		memcpy(part->gpus, e->gpus, (size_t)e->ngpus * sizeof(int));
		part->milli = e->milli;
		part->mem_mib = e->gpu_mem_mib;
		part->cpu_milli = e->cpu_milli;
		part->host_mem_mib = e->mem_mib;
		part->nic = e->nic;
		if (e->ncpus > 0) {
			part->cpus = out->cpu_pool + out->cpu_len;
			memcpy(part->cpus, e->cpus, (size_t)e->ncpus * sizeof(int));
			part->ncpus = e->ncpus;
			out->cpu_len += e->ncpus;
		}
		n++;
	}
	if (n && job->type == GP_JOB_PS_WORKER && job->ps > 0)
		gp_place_split_ps(out, job->ps);
	return n;
}
