/* Iteration time of a job on a placement: compute + exposed gradient
 * synchronisation.  The simulator calls gp_perf_iteration_time once per
 * job start; nothing here allocates but the merge of a PS-Worker job's
 * parameter servers into the worker part of their node. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/model/dlmodels.h"
#include "gpuplan/perf/llmperf.h"
#include "gpuplan/perf/perf.h"
#include "gpuplan/util/util.h"

/* First node of the placement that holds GPUs, -1 when none. */
static int first_node(const gp_placement *p)
{
	int i;

	for (i = 0; i < p->nparts; i++)
		if (p->parts[i].ngpus > 0)
			return p->parts[i].node;
	return -1;
}

/* Training FLOPs per sample: given, else 6 x params x tokens per sample
 * (the transformer rule; CNN jobs get theirs from the model catalog). */
static double flops_per_sample(const gp_model_desc *d)
{
	if (d->flops_per_sample > 0)
		return d->flops_per_sample;
	if (d->params > 0)
		return 6.0 * d->params * (d->seq_len > 0 ? d->seq_len : 1);
	return 0.0;
}

/* Gavel's measured time when it measured this job type, batch and GPU
 * count on this GPU; the spread-over-servers figure when the placement
 * spans nodes and Gavel has one.  0 when not measured. */
static double gavel_iter_s(const gp_job *j, const gp_gpu_model *m, const gp_perf_fabric *f,
			   int other_gpus, const gp_perf_gavel_entry **entry)
{
	const gp_perf_gavel_entry *e;
	int g = m ? gp_perf_gavel_gpu(m->name) : -1;
	double thr, scale = 1.0;

	/* Gavel measured FP32 training, on its own GPUs unless asked. */
	if (!m || j->precision != GP_PREC_FP32 || (g < 0 && !other_gpus))
		return 0;
	/* Gavel's "(batch size B)" is the job's global batch: B / scale per
	 * GPU.  A type without a batch in its name matches any. */
	e = gp_perf_gavel_find(gp_perf_gavel_table, gp_perf_gavel_n, j->more->model.name,
			       j->batch_size * f->n, f->n);
	if (!e)
		e = gp_perf_gavel_find(gp_perf_gavel_table, gp_perf_gavel_n, j->more->model.name, 0,
				       f->n);
	if (!e)
		return 0;
	if (g < 0) {
		/* Another GPU: V100's time scaled by the FP32 peaks (Gavel's
		 * jobs train in FP32). */
		if (!(m->fp32_tflops > 0))
			return 0;
		g = GP_GAVEL_V100;
		scale = GP_PERF_GAVEL_V100_FP32 / m->fp32_tflops;
	}
	thr = f->nodes > 1 && e->thr_spread[g] > 0 ? e->thr_spread[g] : e->thr[g];
	if (!(thr > 0))
		return 0;
	*entry = e;
	return scale / thr;
}

static double gavel_speed(const gp_gpu_model *m, int cnn)
{
	int i;

	for (i = 0; m && i < gp_perf_ngavel_speeds; i++)
		if (gp_perf_gpu_matches(m->name, gp_perf_gavel_speeds[i].gpu))
			return cnn ? gp_perf_gavel_speeds[i].cnn : gp_perf_gavel_speeds[i].other;
	return 1.0;
}

int gp_perf_iteration(const gp_cluster *c, const gp_job *j, const gp_placement *p,
		      gp_perf_iter *out, gp_error *err)
{
	return gp_perf_iteration_opts(c, j, p, 0, out, err);
}

/* FP32 training runs on TF32 tensor cores from Ampere on, on the FP32
 * units before: how much slower than mixed precision (FP16/BF16) a step
 * is, from NVIDIA DeepLearningExamples' ResNet-50 v1.5 tables (PyTorch,
 * 1 GPU): A100 2470 / 938 img/s; V100 1200 / 367 and 1156 / 356. */
#define AMP_OVER_TF32 2.63
#define AMP_OVER_FP32 3.26
/* The same tables as achieved / peak FLOPS of a CNN's FP32 step (training
 * FLOPs 3 x 8.18 G per image): V100 367 and 356 img/s of 15.7 TFLOPS FP32
 * -> 0.57; A100 938 img/s of 156 TFLOPS TF32 -> 0.147. */
#define CNN_EFF_FP32 0.57
#define CNN_EFF_TF32 0.147

/* The same model's mixed-precision step as achieved / FP16 tensor peak,
 * from DeepLearningExamples' TensorFlow ResNet-50 v1.5 tables (one GPU,
 * XLA; not the PyTorch rows above): DGX-1 V100 1270 img/s of 125
 * TFLOPS -> 0.249; DGX A100 2375 img/s of 312 TFLOPS -> 0.187. */
#define CNN_EFF_MIXED_VOLTA 0.249
#define CNN_EFF_MIXED_AMPERE 0.187

/* Seconds of compute at FP32 from the same at mixed precision, on a GPU
 * with tensor cores (FP16 peak well above the FP32 one). */
static double fp32_from_mixed(const gp_gpu_model *m, double t)
{
	return t * (gp_perf_arch(m) >= 8 ? AMP_OVER_TF32 : AMP_OVER_FP32);
}

static int has_tensor_cores(const gp_gpu_model *m)
{
	return m && m->fp16_tflops > 2.5 * m->fp32_tflops;
}

/* Sia's profiles are taken as FP32, on TF32 tensor cores from Ampere on:
 * its ResNet-50 times match DeepLearningExamples' FP32/TF32 rows, not the
 * mixed ones (Pollux's ImageNet benchmark ran apex mixed precision, but
 * bound by JPEG decoding on the CPU, not by the GPU).  How much faster a
 * mixed-precision step is on the profile's GPU (1 without tensor cores). */
static double profile_amp_speedup(const gp_perf_profile *pr)
{
	gp_gpu_model g;

	if (!(pr->peak_tflops > 2.5 * pr->peak_fp32_tflops))
		return 1.0;
	memset(&g, 0, sizeof(g));
	snprintf(g.name, sizeof(g.name), "%s", pr->gpu);
	return gp_perf_arch(&g) >= 8 ? AMP_OVER_TF32 : AMP_OVER_FP32;
}

/* The least time a CNN's step of bsz samples takes on GPU m when the GPU
 * alone bounds it: its FLOPs at the published efficiency of its
 * precision on tensor-core GPUs (FP32/TF32: CNN_EFF_*; mixed:
 * CNN_EFF_MIXED_*).  0 when it does not apply (not a CNN, FLOPs or
 * peaks unknown, no tensor cores, a catalog efficiency of its own). */
static double cnn_gpu_floor(const gp_job *j, const gp_gpu_model *m, double bsz)
{
	const gp_model_desc *d = &j->more->model;
	int ampere;

	if (!m || !has_tensor_cores(m) || m->efficiency > 0 || d->kind != GP_MODEL_CNN ||
	    d->is_transformer || !(d->flops_per_sample > 0))
		return 0;
	ampere = gp_perf_arch(m) >= 8;
	if (j->precision == GP_PREC_FP32)
		return bsz * d->flops_per_sample /
		       ((ampere ? m->fp16_tflops / 2 : m->fp32_tflops) * 1e12 *
			(ampere ? CNN_EFF_TF32 : CNN_EFF_FP32));
	return bsz * d->flops_per_sample /
	       (m->fp16_tflops * 1e12 * (ampere ? CNN_EFF_MIXED_AMPERE : CNN_EFF_MIXED_VOLTA));
}

/* A job on synthetic data (dataset: synthetic) generates its inputs on
 * the GPU: no input pipeline.  Gavel's and Sia's measured times were
 * taken with real data decoded on the CPU (Sia's ImageNet at about 150
 * images/s per loader worker, its multi-GPU steps waiting on the host),
 * so they do not hold for it; its compute is the FLOPs estimate. */
static int synthetic_data(const gp_job *j)
{
	return !strcasecmp(j->more->model.dataset, "synthetic");
}

/* One iteration's estimate in the making. */
typedef struct iter_est {
	const gp_cluster *c;
	const gp_job *j;
	const gp_gpu_model *m;          /* the first node's GPU */
	const gp_perf_gpu_calib *cal;
	gp_perf_fabric f;
	unsigned flags;
	int node;
	double bsz;
	gp_perf_iter *out;
	gp_error *err;
	/* PS-Worker: pushing workers, servers (0: not known, the job's
	 * counts over the fabric) and the push rates of ps_rates */
	int ps_workers, ps_servers;
	double ps_bw_worker, ps_bw_server;
} iter_est;

/* Compute time when no profile of this DL model on this GPU exists: a
 * profile on another GPU scaled by the ratio of peaks, Gavel's time of the
 * job type on another GPU (*done: out is complete), or FLOPs at the
 * calibrated efficiency. */
static int compute_estimate(iter_est *x, int *done)
{
	const gp_job *j = x->j;
	const gp_gpu_model *m = x->m;
	gp_perf_iter *out = x->out;
	double fl = flops_per_sample(&j->more->model), peak, eff;
	int cnn, fp32, tc32, gavel = !(x->flags & GP_PERF_NO_GAVEL);

	if (!m)
		return gp_error_set(x->err, GP_EINPUT, NULL, 0, 0,
				    "node '%s' has no GPU model for the compute estimate",
				    x->c->nodes[x->node].name);
	/* FP32 jobs on tensor-core GPUs: the mixed-precision estimate
	 * times the measured FP32 (or TF32) slowdown, since the
	 * calibrated efficiency is against the FP16 tensor peak. */
	fp32 = j->precision == GP_PREC_FP32 || m->fp16_tflops <= 0;
	tc32 = fp32 && has_tensor_cores(m);
	if (tc32)
		fp32 = 0;
	peak = fp32 ? m->fp32_tflops : m->fp16_tflops;
	if (peak <= 0)
		return gp_error_set(x->err, GP_EINPUT, NULL, 0, 0,
				    "GPU model '%s' has no peak FLOPS", m->name);
	cnn = j->more->model.kind == GP_MODEL_CNN && !j->more->model.is_transformer;
	/* The DL model was profiled on another GPU: its measured
	 * single-GPU compute, scaled by the ratio of peaks, keeps the
	 * fixed per-step costs that FLOPs alone miss. */
	out->scaled = synthetic_data(j) ? NULL
					: gp_perf_profile_nearest(j->more->model.name, peak, fp32);
	if (out->scaled) {
		const gp_perf_profile *sp = out->scaled;
		double ref = fp32 ? sp->peak_fp32_tflops : sp->peak_tflops;

		out->compute_s = gp_perf_ctab_compute(&sp->ctab, sp->p, x->bsz) * ref / peak;
		/* At the FP16 peaks the scale is between mixed-precision steps. */
		if (!fp32)
			out->compute_s /= profile_amp_speedup(sp);
		if (gavel)
			out->compute_s /= gavel_speed(m, cnn);
		if (tc32)
			out->compute_s = fp32_from_mixed(m, out->compute_s);
		return GP_OK;
	}
	if ((fl <= 0 || j->more->model.params <= 0) && gavel) {
		/* Last resort for a Gavel job type on another GPU. */
		double t = gavel_iter_s(j, m, &x->f, 1, &out->gavel);

		if (t > 0) {
			out->compute_s = out->iter_s = t;
			out->algo = GP_ALGO_RING;
			*done = 1;
			return GP_OK;
		}
	}
	if (fl <= 0 || j->more->model.params <= 0)
		return gp_error_set(x->err, GP_EINPUT, NULL, 0, 0,
				    "job '%s': model size unknown (give model: or params:)",
				    j->id ? j->id : "?");
	/* The calibrated efficiency is ResNet-50's: used for CNNs only;
	 * transformers get the usual MFU-like default. */
	eff = GP_PERF_DEFAULT_EFFICIENCY;
	if (m->efficiency > 0)
		eff = m->efficiency;
	else if (x->cal && x->cal->efficiency > 0 && cnn && j->more->model.name[0])
		eff = x->cal->efficiency;
	if (gavel)
		eff *= gavel_speed(m, cnn);
	out->compute_s = x->bsz * fl / (peak * 1e12 * eff);
	if (tc32 && cnn && !(m->efficiency > 0)) {
		/* A CNN in FP32: its own measured efficiency against the
		 * FP32 (Volta, Turing) or TF32 (Ampere on) peak. */
		double p32 = gp_perf_arch(m) >= 8 ? m->fp16_tflops / 2 : m->fp32_tflops;
		double e32 = gp_perf_arch(m) >= 8 ? CNN_EFF_TF32 : CNN_EFF_FP32;

		if (gavel)
			e32 *= gavel_speed(m, cnn);
		out->compute_s = x->bsz * fl / (p32 * 1e12 * e32);
	} else if (tc32) {
		out->compute_s = fp32_from_mixed(m, out->compute_s);
	}
	return GP_OK;
}

/* The gradient all-reduce (or parameter-server push) over the fabric, and
 * how much of it the compute hides. */
static void add_comm(iter_est *x)
{
	const gp_job *j = x->j;
	gp_perf_iter *out = x->out;
	gp_perf_fabric *f = &x->f;
	gp_perf_coll_result r;

	out->grad_bytes = j->more->model.params * (j->precision == GP_PREC_FP32 ? 4 : 2);
	if (j->type == GP_JOB_PS_WORKER) {
		/* Servers are not ranks of the collective; workers push to
		 * them, each at the rate ps_rates found for its node. */
		f->ps = j->ps > 0 ? j->ps : 1;
		if (x->ps_workers > 0 && x->ps_servers > 0) {
			f->n = x->ps_workers;
			f->ps = x->ps_servers;
			f->bw_ps_worker = x->ps_bw_worker;
			f->bw_ps = x->ps_bw_server;
		}
		gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_PS, f, out->grad_bytes, &r);
	} else {
		gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_AUTO, f, out->grad_bytes, &r);
	}
	out->algo = r.algo;
	out->comm_s = f->n > 1 || (x->ps_workers > 0 && x->ps_servers > 0) ? r.time_s : 0.0;
	if (!out->profile)
		out->overlap = x->m->overlap > 0 ? x->m->overlap
			       : x->cal && x->cal->overlap > 0 ? x->cal->overlap : GP_PERF_DEFAULT_OVERLAP;
	out->exposed_s = gp_perf_exposed(out->compute_s, out->comm_s, out->overlap);
	out->iter_s = out->compute_s + out->exposed_s;
}

/* A large-model job through its own model (llmperf.h), in this struct's
 * terms: compute, and the rest as exposed communication. */
static int llm_iteration(const gp_cluster *c, const gp_job *j, const gp_placement *p,
			 gp_perf_iter *out, gp_error *err)
{
	gp_llm_perf r;
	int st = gp_perf_llm(c, j, p, &r, err), i;

	if (st)
		return st;
	out->compute_s = r.term[GP_LLM_T_COMPUTE];
	out->iter_s = r.iter_s;
	out->exposed_s = r.iter_s - out->compute_s;
	for (i = GP_LLM_T_TP; i < GP_LLM_T_COUNT; i++)
		out->comm_s += i == GP_LLM_T_DP ? r.dp_total_s : i == GP_LLM_T_BUBBLE ||
			       i == GP_LLM_T_OPTIM ? 0 : r.term[i];
	out->algo = GP_ALGO_AUTO;
	out->gpus = r.gpus;
	out->nodes = r.nodes;
	snprintf(out->bottleneck, sizeof(out->bottleneck), "large-model job bound by %s",
		 gp_llm_term_name(r.bound));
	return GP_OK;
}

/* Compute and synchronisation once x (fabric, GPU model, calibration)
 * is set: Gavel's measurement, a profile of this DL model on this GPU,
 * or the estimate; then the gradient exchange when the job has peers. */
static int iter_core(iter_est *x)
{
	const gp_job *j = x->j;
	gp_perf_iter *out = x->out;
	int st, done = 0;

	out->gpus = x->f.n;
	out->nodes = x->f.nodes;
	if (!(x->flags & GP_PERF_NO_GAVEL) && !synthetic_data(j)) {
		/* Gavel measured exactly this job type, batch, GPU count and
		 * GPU: its time is the answer (all of it counted as compute). */
		double t = gavel_iter_s(j, x->m, &x->f, 0, &out->gavel);

		if (t > 0) {
			out->compute_s = out->iter_s = t;
			out->overlap = 0;
			out->algo = GP_ALGO_RING;
			out->grad_bytes = j->more->model.params * (j->precision == GP_PREC_FP32 ? 4 : 2);
			return GP_OK;
		}
	}
	out->profile = x->m && !synthetic_data(j) ? gp_perf_profile_find(j->more->model.name, x->m->name)
						 : NULL;
	if (out->profile) {
		/* The profile was measured with this DL model on this GPU: its
		 * compute with k GPUs on a node and its overlap stand; its
		 * fitted communication belongs to the machines Sia measured,
		 * so the collective is recomputed over this placement's links
		 * (GP_PERF_PROFILE_COMM keeps the fit).  The compute is then
		 * the measured one: the fit's contention also stands for the
		 * waiting those machines showed in their sync time. */
		out->iter_s = gp_perf_profile_eval(out->profile, x->f.n, x->f.nodes, x->f.per_node, x->bsz,
						   &out->compute_s, &out->comm_s, &out->exposed_s);
		out->profile_comm_s = out->comm_s;
		out->overlap = out->profile->p[GP_PP_OVERLAP];
		if (!(x->flags & GP_PERF_PROFILE_COMM))
			out->compute_s = gp_perf_profile_compute(out->profile, x->f.n, x->f.per_node,
								 x->bsz);
		if (j->precision != GP_PREC_FP32 && has_tensor_cores(x->m))
			/* A mixed-precision job on a profile measured in FP32. */
			out->compute_s /= profile_amp_speedup(out->profile);
		/* A time measured on other machines, scaled to this job's
		 * precision, is never below what the GPU itself takes. */
		out->compute_s = fmax(out->compute_s, cnn_gpu_floor(j, x->m, x->bsz));
		out->exposed_s = gp_perf_exposed(out->compute_s, out->comm_s, out->overlap);
		out->iter_s = out->compute_s + out->exposed_s;
		out->algo = GP_ALGO_RING;
		out->grad_bytes = j->more->model.params * (j->precision == GP_PREC_FP32 ? 4 : 2);
		if (x->flags & GP_PERF_PROFILE_COMM)
			return GP_OK;
	} else if ((st = compute_estimate(x, &done)) || done) {
		return st;
	}
	if (x->f.n <= 1 && !x->c) {
		/* One GPU alone (gp_perf_single_gpu): nothing to exchange. */
		out->comm_s = out->exposed_s = 0;
		out->iter_s = out->compute_s;
		return GP_OK;
	}
	add_comm(x);
	return GP_OK;
}

/* ---- PS-Worker jobs ---- */

int gp_perf_ps_view(const gp_placement *p, gp_placement *view)
{
	int i, j, k, g, joined = 0;

	gp_placement_clear(view);
	for (i = 0; i < p->nparts; i++) {
		gp_place_part *q = gp_placement_add(view, p->parts[i].node);

		q->role = p->parts[i].role;
		q->milli = p->parts[i].milli;
		q->mem_mib = p->parts[i].mem_mib;
		q->ngpus = p->parts[i].ngpus;
		memcpy(q->gpus, p->parts[i].gpus, sizeof(q->gpus));
	}
	for (j = 0; j < view->nparts; j++) {
		gp_place_part *s = &view->parts[j];

		if (s->role != 1 || s->ngpus <= 0)
			continue;
		for (i = 0; i < view->nparts; i++)
			if (i != j && view->parts[i].role == 0 && view->parts[i].node == s->node &&
			    view->parts[i].ngpus > 0)
				break;
		if (i == view->nparts || view->parts[i].ngpus + s->ngpus > GP_TOPO_MAX_GPUS)
			continue;
		for (g = 0; g < s->ngpus; g++)
			view->parts[i].gpus[view->parts[i].ngpus + g] = s->gpus[g];
		view->parts[i].ngpus += s->ngpus;
		s->ngpus = 0;
		joined++;
	}
	for (i = k = 0; i < view->nparts; i++)
		if (view->parts[i].role != 1 || view->parts[i].ngpus > 0)
			view->parts[k++] = view->parts[i];
	view->nparts = k;
	return joined;
}

/* Does a server part (role 1) share its node with a worker part? */
static int ps_needs_view(const gp_placement *p)
{
	int i, j;

	for (j = 0; j < p->nparts; j++)
		if (p->parts[j].role == 1 && p->parts[j].ngpus > 0)
			for (i = 0; i < p->nparts; i++)
				if (p->parts[i].role == 0 && p->parts[i].ngpus > 0 &&
				    p->parts[i].node == p->parts[j].node)
					return 1;
	return 0;
}

/* Workers and parameter servers of a PS-Worker job on `node` of placement
 * p (*w, *s), or on all its nodes when node < 0: the parts' roles, or,
 * when no part has one (a set of GPUs given as it is), the first `ps`
 * GPUs in part order are the servers, as a policy splits them off. */
static void ps_count(const gp_placement *p, int node, int ps, int *w, int *s)
{
	int i, roles = 0, left = ps;

	for (i = 0; i < p->nparts; i++)
		if (p->parts[i].role == 1 && p->parts[i].ngpus > 0)
			roles = 1;
	*w = *s = 0;
	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *q = &p->parts[i];
		int n = q->ngpus > 0 ? q->ngpus : 0, sv;

		if (roles) {
			sv = q->role == 1 ? n : 0;
		} else {
			sv = left < n ? left : n;
			left -= sv;
		}
		if (node >= 0 && q->node != node)
			continue;
		*s += sv;
		*w += n - sv;
	}
}

/* The job's GPUs on `node` in view v (every part there), into gpus. */
static int node_gpus(const gp_placement *v, int node, int *gpus)
{
	int i, g, n = 0;

	for (i = 0; i < v->nparts; i++)
		for (g = 0; v->parts[i].node == node && g < v->parts[i].ngpus && n < GP_TOPO_MAX_GPUS; g++)
			gpus[n++] = v->parts[i].gpus[g];
	return n;
}

/* Is part i of v the first of v's parts on its node? */
static int first_on_node(const gp_placement *v, int i)
{
	int k;

	for (k = 0; k < i; k++)
		if (v->parts[k].ngpus > 0 && v->parts[k].node == v->parts[i].node)
			return 0;
	return v->parts[i].ngpus > 0;
}

/* The rates of a PS-Worker job's push (reference A.3, per member): each
 * of W workers sends S / P to each of P servers, each server takes W S / P.
 * A transfer between a worker and a server on one node stays inside it
 * at the rate of the node's ring over the job's GPUs there (the perf
 * model's per-rank ring); one between nodes leaves through the NICs of
 * the sender's node, shared by the workers pushing through them, and
 * enters through those of the receiver's node, shared by the servers
 * there.  So a worker on node X with s_X of the servers beside it takes
 *   t_w = max((P - s_X)/P S / (net_X / w_X), s_X/P S / ring_X)
 * and a server on node Y with w_Y of the workers beside it
 *   t_s = max((W - w_Y)/P S / (net_Y / s_Y), w_Y/P S / ring_Y);
 * the push lasts as long as the slowest of them.  net_X is what the node's
 * NICs give the job's GPUs there (gp_perf_node_net_gbs) under the
 * fabric's load, as the fabric's slowest node has it.  Into x: W, P and
 * the rates ps_time takes, S / max t_w and W S / (P max t_s). */
static void ps_rates(iter_est *x, const gp_placement *p, const gp_placement *v)
{
	const gp_cluster *c = x->c;
	int ps = x->j->ps > 0 ? x->j->ps : 1, W, P, i, n, gpus[GP_TOPO_MAX_GPUS];
	double slow = 0, load = 1, tw = 0, ts = 0;

	ps_count(p, -1, ps, &W, &P);
	if (W <= 0 || P <= 0)
		return;
	for (i = 0; i < v->nparts && x->f.nodes > 1; i++) {
		double g;

		if (!first_on_node(v, i))
			continue;
		n = node_gpus(v, v->parts[i].node, gpus);
		g = gp_perf_node_net_gbs(c, v->parts[i].node, gpus, n, NULL);
		if (g > 0 && (slow == 0 || g < slow))
			slow = g;
	}
	if (slow > 0 && x->f.bw_node_net > 0)
		load = x->f.bw_node_net / slow;
	for (i = 0; i < v->nparts; i++) {
		int node = v->parts[i].node, w, s, a, b;
		double net = 0, ring = 5000.0, t;
		gp_link l;

		if (!first_on_node(v, i))
			continue;
		ps_count(p, node, ps, &w, &s);
		n = node_gpus(v, node, gpus);
		if (x->f.nodes > 1) {
			net = gp_perf_node_net_gbs(c, node, gpus, n, NULL) * load;
			if (!(net > 0))
				net = x->f.bw_node_net; /* as the fabric takes it */
		}
		if (n > 1)
			ring = gp_perf_ring_gbs(&c->types[c->nodes[node].type].topo,
						gp_cluster_node_model(c, node), gpus, n, &a, &b, &l);
		if (w > 0) {
			t = fmax(P > s ? (double)(P - s) / P / (net / w) : 0,
				 s > 0 ? (double)s / P / ring : 0);
			tw = fmax(tw, t);
		}
		if (s > 0) {
			t = fmax(W > w ? (double)(W - w) / P / (net / s) : 0,
				 w > 0 ? (double)w / P / ring : 0);
			ts = fmax(ts, t);
		}
	}
	x->ps_workers = W;
	x->ps_servers = P;
	x->ps_bw_worker = tw > 0 ? 1.0 / tw : 0;
	x->ps_bw_server = ts > 0 ? (double)W / P / ts : 0;
}

int gp_perf_iteration_opts(const gp_cluster *c, const gp_job *j, const gp_placement *p,
			   unsigned flags, gp_perf_iter *out, gp_error *err)
{
	iter_est x;
	gp_placement view;
	const gp_placement *v = p;
	int st;

	memset(out, 0, sizeof(*out));
	if (j->type == GP_JOB_LLM)
		return llm_iteration(c, j, p, out, err);
	memset(&x, 0, sizeof(x));
	x.c = c;
	x.j = j;
	x.flags = flags;
	x.out = out;
	x.err = err;
	x.bsz = j->batch_size > 0 ? j->batch_size : 32;
	x.node = first_node(p);
	if (x.node < 0 || x.node >= c->nnodes)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0, "job '%s' has an empty placement",
				    j->id ? j->id : "?");
	/* The fabric takes each part for a node: a PS-Worker job's server
	 * beside workers is timed on their node, with them. */
	gp_placement_init(&view);
	if (j->type == GP_JOB_PS_WORKER && ps_needs_view(p)) {
		gp_perf_ps_view(p, &view);
		v = &view;
	}
	st = gp_perf_fabric_of(c, v, &x.f, out->bottleneck, sizeof(out->bottleneck), err);
	if (st == GP_OK && j->type == GP_JOB_PS_WORKER)
		ps_rates(&x, p, v);
	gp_placement_release(&view);
	if (st)
		return st;
	x.m = gp_cluster_node_model(c, x.node);
	x.cal = x.m ? gp_perf_gpu_calib_find(x.m->name) : NULL;
	return iter_core(&x);
}

int gp_perf_single_gpu(const gp_gpu_model *m, const gp_job *j, gp_perf_iter *out, gp_error *err)
{
	iter_est x;

	memset(out, 0, sizeof(*out));
	if (!m)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0, "no GPU model for the compute estimate");
	if (j->type == GP_JOB_LLM)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "a large-model job has no one-GPU estimate");
	memset(&x, 0, sizeof(x));
	x.j = j;
	x.out = out;
	x.err = err;
	x.bsz = j->batch_size > 0 ? j->batch_size : 32;
	x.f.n = x.f.nodes = x.f.per_node = 1;
	x.m = m;
	x.cal = gp_perf_gpu_calib_find(m->name);
	return iter_core(&x);
}

double gp_perf_iteration_time(const gp_cluster *c, const gp_job *j, const gp_placement *p)
{
	gp_perf_iter it;

	if (gp_perf_iteration(c, j, p, &it, NULL))
		return -1.0;
	return it.iter_s;
}
