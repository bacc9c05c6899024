/* Iteration time of large-model jobs (llmperf.h).  Formulas and sources:
 * man gpuplan, "Large-model jobs"; llm-training-model.md §4, §5, §7. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/perf/llmperf.h"
#include "gpuplan/perf/perf.h"
#include "gpuplan/util/util.h"

/* GEMM efficiency per GPU generation, fitted by `make validate-llm` on the
 * fitting half of tests/data/llm/validation.csv (man gpuplan). */
static const gp_llm_eff effs[] = {
	{ "ampere", 0.72, 0 },
	{ "hopper", 0.40, 0.40 },
	{ "blackwell", 0.40, 0.40 }, /* no published case yet: Hopper's */
};

/* Share of the elementwise (memory-bound) kernels' bytes that reach HBM
 * speed, and of a window's compute under which a collective hides. */
#define MEM_EFF 0.7
#define ATTN_EFF_REL 0.75 /* fused attention vs GEMM efficiency */

const char *gp_llm_term_name(int t)
{
	static const char *const n[] = { "compute", "tensor-parallel", "context-parallel",
		"expert-parallel", "pipeline bubble", "pipeline p2p", "data-parallel",
		"optimizer step" };

	return t >= 0 && t < GP_LLM_T_COUNT ? n[t] : "?";
}

const gp_llm_eff *gp_perf_llm_eff(const gp_gpu_model *m)
{
	int a = gp_perf_arch(m);

	return a >= 10 ? &effs[2] : a == 9 ? &effs[1] : &effs[0];
}

/* GPU of rank r: the placement's GPUs in order. */
typedef struct rankmap {
	const gp_placement *p;
	int *part, *gpu;        /* per rank */
	int n;
} rankmap;

static int same_domain(const gp_cluster *c, int a, int b)
{
	const char *da, *db;

	if (a == b)
		return 1;
	da = gp_llm_node_domain(c, a);
	db = gp_llm_node_domain(c, b);
	return da && db && !strcmp(da, db);
}

/* Group of `size` ranks from `first`, `stride` apart: its fabric (fills f)
 * and a description.  A group inside one multi-node NVLink domain is
 * costed as one NVSwitch node of its size. */
static int group_fabric(const gp_cluster *c, const rankmap *rm, int first, int stride, int size,
			gp_perf_fabric *f, gp_llm_group *g, const char *what, gp_error *err)
{
	gp_placement sub;
	char bott[160];
	int i, k, st, nodes = 0, domains = 1, node0 = rm->p->parts[rm->part[first]].node;

	gp_placement_init(&sub);
	for (i = 0; i < size; i++) {
		int r = first + i * stride, node = rm->p->parts[rm->part[r]].node;
		gp_place_part *pp = NULL;

		for (k = 0; k < sub.nparts; k++)
			if (sub.parts[k].node == node)
				pp = &sub.parts[k];
		if (!pp) {
			pp = gp_placement_add(&sub, node);
			nodes++;
			if (!same_domain(c, node0, node))
				domains++;
		}
		pp->gpus[pp->ngpus++] = rm->gpu[r];
	}
	g->size = size;
	g->nodes = nodes;
	g->domains = nodes > 1 && domains == 1 && gp_llm_node_domain(c, node0) ? 1 : nodes;
	if (g->domains == 1 && nodes > 1) {
		/* inside one NVLink domain: the first node's GPUs stand for it */
		gp_placement one;

		gp_placement_init(&one);
		gp_placement_add(&one, sub.parts[0].node);
		one.parts[0].ngpus = sub.parts[0].ngpus;
		memcpy(one.parts[0].gpus, sub.parts[0].gpus, sizeof(one.parts[0].gpus));
		st = gp_perf_fabric_of(c, &one, f, bott, sizeof(bott), err);
		gp_placement_release(&one);
		f->n = size;
		f->per_node = size;
		snprintf(g->where, sizeof(g->where), "%s group of %d over %d nodes of NVLink domain %s",
			 what, size, nodes, gp_llm_node_domain(c, node0));
	} else {
		st = gp_perf_fabric_of(c, &sub, f, bott, sizeof(bott), err);
		if (nodes == 1)
			snprintf(g->where, sizeof(g->where), "%s group of %d inside node %s (%s)", what,
				 size, c->nodes[node0].name, bott);
		else
			snprintf(g->where, sizeof(g->where), "%s group of %d over %d nodes (%s)", what,
				 size, nodes, bott);
	}
	gp_placement_release(&sub);
	return st;
}

static double coll(int op, const gp_perf_fabric *f, double bytes)
{
	gp_perf_coll_result r;

	if (f->n < 2 || bytes <= 0)
		return 0;
	memset(&r, 0, sizeof(r));
	gp_perf_coll_eval(op, GP_ALGO_AUTO, f, bytes, &r);
	return r.time_s > 0 ? r.time_s : 0;
}

static int build_map(const gp_placement *p, int want, rankmap *rm, int *part, int *gpu,
		     gp_error *err)
{
	int i, k, n = 0;

	for (i = 0; i < p->nparts; i++)
		for (k = 0; k < p->parts[i].ngpus; k++) {
			if (n < want) {
				part[n] = i;
				gpu[n] = p->parts[i].gpus[k];
			}
			n++;
		}
	if (n != want)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "the placement has %d GPUs; the job asks %d", n, want);
	rm->p = p;
	rm->part = part;
	rm->gpu = gpu;
	rm->n = n;
	return GP_OK;
}

int gp_perf_llm(const gp_cluster *c, const gp_job *j, const gp_placement *p, gp_llm_perf *o,
		gp_error *err)
{
	return gp_perf_llm_eta(c, j, p, 0, o, err);
}

int gp_perf_llm_eta(const gp_cluster *c, const gp_job *j, const gp_placement *p, double eta_set,
		    gp_llm_perf *o, gp_error *err)
{
	const gp_llm *l = &j->more->llm;
	const gp_gpu_model *gm;
	const gp_llm_eff *eff;
	gp_llm_mem mem;
	gp_perf_fabric ftp, fcp, fdp, fpp, fep;
	rankmap rm;
	int *part = NULL, *gpu = NULL, st, i, tpg, W;
	double t = l->tp, pp = l->pp, v = l->vp, cpn = l->cp, d = l->dp;
	double s = l->seq_len, b = l->micro_batch, h = l->hidden, m, Lp, tok, dh, q, kv, phi, f;
	double peak16, peak, eta, flin, fattn, t_lin, t_attn, t_mem, bw_hbm, tf, tb, trc, M;
	double tp_mb = 0, cp_mb = 0, ep_mb = 0, tau, p2p = 0, dp_exp = 0, dp_all = 0, opt;
	double psi, beta = 2;

	memset(o, 0, sizeof(*o));
	if (j->type != GP_JOB_LLM || l->layers <= 0)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0, "job '%s' is no llm job",
				    j->id ? j->id : "?");
	W = j->gpus;
	part = gp_xmalloc(sizeof(int) * (size_t)W * 2);
	gpu = part + W;
	if ((st = build_map(p, W, &rm, part, gpu, err)))
		goto out;
	gm = gp_cluster_node_model(c, p->parts[0].node);
	for (i = 1; i < p->nparts; i++) { /* the slowest GPU sets the pace */
		const gp_gpu_model *g2 = gp_cluster_node_model(c, p->parts[i].node);

		if (g2 && gm && g2->fp16_tflops < gm->fp16_tflops)
			gm = g2;
	}
	if (!gm || gm->fp16_tflops <= 0) {
		st = gp_error_set(err, GP_EINPUT, NULL, 0, 0, "no GPU model with a known peak");
		goto out;
	}
	snprintf(o->gpu, sizeof(o->gpu), "%s", gm->name);
	eff = gp_perf_llm_eff(gm);
	peak16 = gm->fp16_tflops * 1e12;
	peak = peak16;
	eta = eff->gemm_bf16;
	if (l->precision == GP_LLM_FP8 && eff->gemm_fp8 > 0) {
		peak = 2 * peak16; /* dense fp8 = 2 x bf16 on Hopper and later */
		eta = eff->gemm_fp8;
	}
	if (eta_set > 0)
		eta = eta_set;
	bw_hbm = (gm->mem_bw_gbs > 0 ? gm->mem_bw_gbs : 1500) * 1e9;

	/* Groups: rank = tp + t (cp + c (dp + d pp)); expert groups take ep
	 * consecutive TP blocks (Megatron's expert grid with etp = tp). */
	tpg = 0;
	for (i = 0; i + l->tp <= W && l->tp > 1; i += l->tp) { /* a TP group that leaves its domain */
		int a = p->parts[part[i]].node, z = p->parts[part[i + l->tp - 1]].node;

		if (!same_domain(c, a, z)) {
			tpg = i;
			break;
		}
	}
	memset(&ftp, 0, sizeof(ftp));
	memset(&fcp, 0, sizeof(fcp));
	memset(&fdp, 0, sizeof(fdp));
	memset(&fpp, 0, sizeof(fpp));
	memset(&fep, 0, sizeof(fep));
	if ((l->tp > 1 && (st = group_fabric(c, &rm, tpg, 1, l->tp, &ftp, &o->tp, "TP", err))) ||
	    (l->cp > 1 &&
	     (st = group_fabric(c, &rm, 0, l->tp, l->cp, &fcp, &o->cp, "CP", err))) ||
	    (l->dp > 1 &&
	     (st = group_fabric(c, &rm, 0, l->tp * l->cp, l->dp, &fdp, &o->dp, "DP", err))) ||
	    (l->pp > 1 && (st = group_fabric(c, &rm, 0, l->tp * l->cp * l->dp, 2, &fpp, &o->pp,
					     "PP neighbour", err))) ||
	    (l->ep > 1 && (st = group_fabric(c, &rm, 0, l->tp, l->ep, &fep, &o->ep, "EP", err))))
		goto out;

	gp_llm_memory(l, &mem);
	m = (double)l->global_batch / (b * d);
	Lp = gp_llm_stage_layers(l);
	tok = s * b / cpn; /* tokens of one micro-batch on one CP rank */
	dh = h / l->heads;
	q = l->heads * dh;
	kv = l->kv_heads * dh;
	phi = l->gated ? 3 : 2;
	f = l->experts > 0 ? (double)l->expert_ffn * l->top_k : l->ffn;
	/* forward FLOPs of one micro-batch through one stage, per GPU */
	flin = 2 * tok * Lp * (h * (q + 2 * kv) + q * h + phi * h * f) / t;
	flin += 2 * tok * h * l->vocab / t; /* the logits, on the last stage */
	fattn = 4 * tok * s * q * Lp / t * (l->flash ? 0.5 : 1.0);
	t_lin = flin / (peak * eta);
	t_attn = fattn / (peak16 * (eta_set > 0 && l->precision != GP_LLM_FP8 ? eta_set :
				    eff->gemm_bf16) * ATTN_EFF_REL);
	/* elementwise kernels: norms, residuals, RoPE, the MLP activation
	 * (elements read + written per token and layer, 2 bytes each) */
	t_mem = 2 * tok * Lp * ((10 * h) / (l->sp ? t : 1) + (2 * (q + kv) + 3 * f) / t) /
		(bw_hbm * MEM_EFF);
	tf = t_lin + t_attn + t_mem;
	tb = 2 * tf;
	trc = l->recompute == GP_RECOMP_FULL ? tf :
	      l->recompute == GP_RECOMP_SELECTIVE && !l->flash ? t_attn : 0;
	o->tf_s = tf;
	o->tb_s = tb;

	/* tensor parallel: 2 all-reduces (or AG + RS with SP) forward, 2
	 * backward, 2 more under full recompute; M = s b h beta / c */
	M = tok * h * beta;
	if (l->tp > 1) {
		double one = l->sp ? coll(GP_COLL_ALLGATHER, &ftp, M) +
				     coll(GP_COLL_REDUCESCATTER, &ftp, M)
				   : coll(GP_COLL_ALLREDUCE, &ftp, M);

		o->tp.time_s = one;
		tp_mb = Lp * one * (4 + (l->recompute == GP_RECOMP_FULL ? 2 : 0));
	}
	/* context parallel: K and V circulate in c - 1 ring steps forward,
	 * twice that backward, hidden behind the attention they feed */
	if (l->cp > 1) {
		double chunk = 2 * tok * kv * beta / t, ring;

		ring = (cpn - 1) * coll(GP_COLL_SENDRECV, &fcp, chunk);
		o->cp.time_s = ring;
		cp_mb = Lp * (fmax(0, ring - t_attn / Lp) + fmax(0, 2 * ring - 2 * t_attn / Lp));
	}
	/* expert parallel: dispatch and combine all-to-alls, forward and
	 * backward, on the tokens each rank holds */
	if (l->ep > 1) {
		double a2a = coll(GP_COLL_ALLTOALL, &fep, tok / (l->sp ? t : 1) * l->top_k * h * beta);

		o->ep.time_s = a2a;
		ep_mb = 4 * Lp * a2a;
	}
	tau = tf + tb + trc + tp_mb + cp_mb + ep_mb;
	/* pipeline: sends of M / (c t) (scatter-gather) each way per micro-batch
	 * and virtual stage; the interleaved schedule overlaps its steady state */
	if (l->pp > 1) {
		double one = coll(GP_COLL_SENDRECV, &fpp, M / (l->sp ? t : 1));

		o->pp.time_s = one;
		p2p = 2 * one * (l->vp > 1 ? (pp - 1) * v : m + pp - 1);
	}
	/* data parallel over d x c ranks (CP shares the gradient reduction) */
	psi = mem.params_local;
	if (l->dp * l->cp > 1) {
		gp_perf_fabric fd = fdp;
		double D = d * cpn, rs, ag, ar;

		if (l->cp > 1 && l->dp == 1)
			fd = fcp;
		fd.n = (int)D;
		if (l->sharding == GP_SHARD_HSDP && l->shard_group > 0 && l->shard_group < D) {
			gp_perf_fabric fs = fd, fr = fd;

			fs.n = l->shard_group;
			fr.n = (int)(D / l->shard_group);
			rs = coll(GP_COLL_REDUCESCATTER, &fs, psi * beta) +
			     coll(GP_COLL_ALLREDUCE, &fr, psi * beta / l->shard_group);
			ag = coll(GP_COLL_ALLGATHER, &fs, psi * beta);
		} else {
			rs = coll(GP_COLL_REDUCESCATTER, &fd, psi * beta);
			ag = coll(GP_COLL_ALLGATHER, &fd, psi * beta);
		}
		ar = coll(GP_COLL_ALLREDUCE, &fd, psi * beta);
		o->dp.time_s = l->sharding == GP_SHARD_NONE ? ar : rs + ag;
		if (l->sharding >= GP_SHARD_ZERO3) {
			/* all-gather forward and backward, reduce-scatter, per
			 * micro-batch, each behind that micro-batch's compute */
			double per = 2 * ag + rs;

			dp_all = m * per;
			dp_exp = m * fmax(0, per - (tf + tb + trc));
		} else if (l->sharding == GP_SHARD_NONE) {
			dp_all = ar;
			dp_exp = fmax(0, ar - tb); /* behind the last backward */
		} else {
			dp_all = rs + ag;
			dp_exp = fmax(0, rs - tb) + fmax(0, ag - tf);
		}
	}
	/* Adam step: read w32, m, v, g32; write w32, m, v and the 16-bit copy */
	opt = 30 * psi / (l->sharding != GP_SHARD_NONE ? mem.shard_ranks : 1) / bw_hbm;

	o->term[GP_LLM_T_COMPUTE] = m * (tf + tb + trc);
	o->term[GP_LLM_T_TP] = m * tp_mb;
	o->term[GP_LLM_T_CP] = m * cp_mb;
	o->term[GP_LLM_T_EP] = m * ep_mb;
	o->term[GP_LLM_T_BUBBLE] = (pp - 1) / v * tau;
	o->term[GP_LLM_T_P2P] = p2p;
	o->term[GP_LLM_T_DP] = dp_exp;
	o->term[GP_LLM_T_OPTIM] = opt;
	o->dp_total_s = dp_all;
	o->iter_s = 0;
	o->bound = 0;
	o->overhead = 1;
	for (i = 0; i < GP_LLM_T_COUNT; i++) {
		o->iter_s += o->term[i];
		if (o->term[i] > o->term[o->bound])
			o->bound = i;
		if (i > 0 && o->term[i] > o->term[o->overhead])
			o->overhead = i;
	}
	o->model_flops = gp_llm_model_flops(l);
	o->tokens_per_s_per_gpu = (double)l->global_batch * s / (o->iter_s * W);
	o->mfu = o->model_flops / (o->iter_s * W * peak16);
	o->peak_tflops = peak / 1e12;
	o->efficiency = eta;
	o->gpus = W;
	for (i = 0; i < p->nparts; i++)
		o->nodes += p->parts[i].ngpus > 0;
	st = GP_OK;
out:
	free(part);
	return st;
}
