/* Iteration time of a job on a placement: compute + exposed gradient
 * synchronisation.  The simulator calls gp_perf_iteration_time once per
 * job start; nothing here allocates. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpuplan/model/dlmodels.h"
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
	e = gp_perf_gavel_find(gp_perf_gavel_table, gp_perf_gavel_n, j->model.name,
			       j->batch_size, f->n);
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

int gp_perf_iteration_opts(const gp_cluster *c, const gp_job *j, const gp_placement *p,
			   unsigned flags, gp_perf_iter *out, gp_error *err)
{
	const gp_gpu_model *m;
	const gp_perf_gpu_calib *cal;
	gp_perf_fabric f;
	gp_perf_coll_result r;
	double bsz = j->batch_size > 0 ? j->batch_size : 32;
	int node, st, i, workers = 0, servers = 0;

	memset(out, 0, sizeof(*out));
	node = first_node(p);
	if (node < 0 || node >= c->nnodes)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0, "job '%s' has an empty placement",
				    j->id ? j->id : "?");
	st = gp_perf_fabric_of(c, p, &f, out->bottleneck, sizeof(out->bottleneck), err);
	if (st)
		return st;
	for (i = 0; i < p->nparts; i++) {
		if (p->parts[i].role == 1)
			servers += p->parts[i].ngpus;
		else
			workers += p->parts[i].ngpus;
	}
	out->gpus = f.n;
	out->nodes = f.nodes;
	m = gp_cluster_node_model(c, node);
	cal = m ? gp_perf_gpu_calib_find(m->name) : NULL;
	if (!(flags & GP_PERF_NO_GAVEL)) {
		/* Gavel measured exactly this job type, batch, GPU count and
		 * GPU: its time is the answer (all of it counted as compute). */
		double t = gavel_iter_s(j, m, &f, 0, &out->gavel);

		if (t > 0) {
			out->compute_s = out->iter_s = t;
			out->overlap = 0;
			out->algo = GP_ALGO_RING;
			out->grad_bytes = j->model.params * (j->precision == GP_PREC_FP32 ? 4 : 2);
			return GP_OK;
		}
	}
	out->profile = m ? gp_perf_profile_find(j->model.name, m->name) : NULL;
	if (out->profile) {
		const double *pp = out->profile->p;

		/* The profile was measured with this DL model on this GPU: it
		 * knows compute, communication and overlap of n GPUs on m nodes. */
		out->iter_s = gp_perf_profile_eval(out->profile, f.n, f.nodes, f.per_node, bsz,
						   &out->compute_s, &out->comm_s, &out->exposed_s);
		out->overlap = pp[GP_PP_OVERLAP];
		out->algo = GP_ALGO_RING;
		out->grad_bytes = j->model.params * (j->precision == GP_PREC_FP32 ? 4 : 2);
		return GP_OK;
	}
	{
		double fl = flops_per_sample(&j->model), peak, eff;
		int cnn, fp32;

		if (!m)
			return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					    "node '%s' has no GPU model for the compute estimate",
					    c->nodes[node].name);
		fp32 = j->precision == GP_PREC_FP32 || m->fp16_tflops <= 0;
		peak = fp32 ? m->fp32_tflops : m->fp16_tflops;
		if (peak <= 0)
			return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					    "GPU model '%s' has no peak FLOPS", m->name);
		cnn = j->model.kind == GP_MODEL_CNN && !j->model.is_transformer;
		/* The DL model was profiled on another GPU: its measured
		 * single-GPU compute, scaled by the ratio of peaks, keeps the
		 * fixed per-step costs that FLOPs alone miss. */
		out->scaled = gp_perf_profile_nearest(j->model.name, peak, fp32);
		if (out->scaled) {
			const gp_perf_profile *sp = out->scaled;
			double ref = fp32 ? sp->peak_fp32_tflops : sp->peak_tflops;

			out->compute_s = gp_perf_ctab_compute(&sp->ctab, sp->p, bsz) * ref / peak;
			if (!(flags & GP_PERF_NO_GAVEL))
				out->compute_s /= gavel_speed(m, cnn);
			goto comm;
		}
		if ((fl <= 0 || j->model.params <= 0) && !(flags & GP_PERF_NO_GAVEL)) {
			/* Last resort for a Gavel job type on another GPU. */
			double t = gavel_iter_s(j, m, &f, 1, &out->gavel);

			if (t > 0) {
				out->compute_s = out->iter_s = t;
				out->algo = GP_ALGO_RING;
				return GP_OK;
			}
		}
		if (fl <= 0 || j->model.params <= 0)
			return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					    "job '%s': model size unknown (give model: or params:)",
					    j->id ? j->id : "?");
		/* The calibrated efficiency is ResNet-50's: used for CNNs only;
		 * transformers get the usual MFU-like default. */
		eff = GP_PERF_DEFAULT_EFFICIENCY;
		if (m->efficiency > 0)
			eff = m->efficiency;
		else if (cal && cal->efficiency > 0 && cnn && j->model.name[0])
			eff = cal->efficiency;
		if (!(flags & GP_PERF_NO_GAVEL))
			eff *= gavel_speed(m, cnn);
		out->compute_s = bsz * fl / (peak * 1e12 * eff);
	}
comm:
	out->grad_bytes = j->model.params * (j->precision == GP_PREC_FP32 ? 4 : 2);
	if (j->type == GP_JOB_PS_WORKER) {
		/* Servers are not ranks of the collective; workers push to them. */
		f.ps = servers > 0 ? servers : (j->ps > 0 ? j->ps : 1);
		if (servers > 0 && workers > 0)
			f.n = workers;
		gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_PS, &f, out->grad_bytes, &r);
	} else {
		gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_AUTO, &f, out->grad_bytes, &r);
	}
	out->algo = r.algo;
	out->comm_s = f.n > 1 ? r.time_s : 0.0;
	out->overlap = m->overlap > 0 ? m->overlap
		       : cal && cal->overlap > 0 ? cal->overlap : GP_PERF_DEFAULT_OVERLAP;
	out->exposed_s = gp_perf_exposed(out->compute_s, out->comm_s, out->overlap);
	out->iter_s = out->compute_s + out->exposed_s;
	return GP_OK;
}

double gp_perf_iteration_time(const gp_cluster *c, const gp_job *j, const gp_placement *p)
{
	gp_perf_iter it;

	if (gp_perf_iteration(c, j, p, &it, NULL))
		return -1.0;
	return it.iter_s;
}
