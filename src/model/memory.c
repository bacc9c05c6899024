/* The memory estimator (memory.h). */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/model/memory.h"
#include "gpuplan/model/dlmodels.h"
#include "gpuplan/util/util.h"

static const char *const opt_names[] = {
	[GP_OPT_SGD] = "sgd", [GP_OPT_MOMENTUM] = "momentum", [GP_OPT_ADAM] = "adam",
};
static const char *const prec_names[] = {
	[GP_PREC_FP32] = "fp32", [GP_PREC_FP16] = "fp16", [GP_PREC_BF16] = "bf16",
	[GP_PREC_MIXED] = "mixed",
};

const char *gp_optimizer_name(int opt)
{
	return opt >= 0 && (size_t)opt < GP_ARRAY_SIZE(opt_names) ? opt_names[opt] : "?";
}

int gp_optimizer_parse(const char *s)
{
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(opt_names); i++)
		if (!strcasecmp(s, opt_names[i]))
			return (int)i;
	if (!strcasecmp(s, "adamw"))
		return GP_OPT_ADAM;
	return -1;
}

const char *gp_precision_name(int prec)
{
	return prec >= 0 && (size_t)prec < GP_ARRAY_SIZE(prec_names) ? prec_names[prec] : "?";
}

int gp_precision_parse(const char *s)
{
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(prec_names); i++)
		if (!strcasecmp(s, prec_names[i]))
			return (int)i;
	if (!strcasecmp(s, "amp"))
		return GP_PREC_MIXED;
	return -1;
}

/* ZeRO §3.1 and models-and-failures.md §D.1.  Mixed precision keeps
 * 16-bit weights and gradients plus fp32 master weights and fp32 optimizer
 * moments: Adam 2 + 2 + (4 + 8) = 16, momentum 2 + 2 + (4 + 4) = 12, SGD
 * 2 + 2 + 4 = 8.  Pure fp32: 4 + 4 + (0 / 4 / 8).  Pure fp16/bf16 keeps
 * everything, moments included, in 16 bits: 2 + 2 + (0 / 2 / 4). */
void gp_memory_bytes_per_param(int optimizer, int precision, double *weight,
			       double *grad, double *optim)
{
	int moments = optimizer == GP_OPT_ADAM ? 2 : optimizer == GP_OPT_MOMENTUM ? 1 : 0;

	switch (precision) {
	case GP_PREC_MIXED:
		*weight = 2;
		*grad = 2;
		*optim = 4 + 4.0 * moments;
		break;
	case GP_PREC_FP16:
	case GP_PREC_BF16:
		*weight = 2;
		*grad = 2;
		*optim = 2.0 * moments;
		break;
	default:
		*weight = 4;
		*grad = 4;
		*optim = 4.0 * moments;
		break;
	}
}

int gp_memory_estimate(const gp_job *job, gp_mem_estimate *e, gp_error *err)
{
	return gp_memory_estimate_margin(job, GP_MEM_MARGIN_DEFAULT, e, err);
}

int gp_memory_estimate_margin(const gp_job *job, double margin, gp_mem_estimate *e, gp_error *err)
{
	const gp_model_desc *m = &job->more->model;
	double p = m->params, b;

	memset(e, 0, sizeof(*e));
	if (p <= 0)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "job '%s' has no model parameters to estimate memory from",
				    job->id ? job->id : "?");
	if (!(margin >= 0 && margin <= GP_MEM_MARGIN_MAX))
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0, "memory margin %g is outside [0, %g]",
				    margin, GP_MEM_MARGIN_MAX);
	e->margin = margin;
	if (job->type == GP_JOB_LLM && job->more->llm.layers > 0) {
		gp_llm_memory(&job->more->llm, &e->llm);
		e->rule = GP_MEM_RULE_LLM;
		e->batch = job->more->llm.micro_batch;
		e->weights = e->llm.weights + e->llm.fp8_copy;
		e->grads = e->llm.grads;
		e->optim = e->llm.optim;
		e->weight_bpp = e->weights / e->llm.params_local;
		e->grad_bpp = e->grads / e->llm.params_local;
		e->optim_bpp = e->optim / e->llm.params_local;
		e->states = e->weights + e->grads + e->optim;
		e->activations = e->llm.activations + e->llm.fsdp_units;
		e->logits = e->llm.embed_act;
		e->overhead = e->llm.allowance + margin * e->llm.total;
		e->total = e->llm.total * (1 + margin);
		return GP_OK;
	}
	e->batch = job->batch_size > 0 ? job->batch_size : 1;
	b = e->batch;
	gp_memory_bytes_per_param(job->optimizer, job->precision, &e->weight_bpp,
				  &e->grad_bpp, &e->optim_bpp);
	e->weights = p * e->weight_bpp;
	e->grads = p * e->grad_bpp;
	e->optim = p * e->optim_bpp;
	e->states = e->weights + e->grads + e->optim;

	if (m->is_transformer && m->hidden > 0 && m->layers > 0 && m->seq_len > 0) {
		double s = m->seq_len, h = m->hidden, coef = 34.0;

		e->rule = GP_MEM_RULE_TRANSFORMER;
		/* The s*s attention term needs the head count; without it the
		 * score matrix is taken as never stored (FlashAttention). */
		if (m->heads > 0)
			coef += 5.0 * m->heads * s / h;
		else
			e->note = "no head count: attention scores assumed not stored (FlashAttention)";
		e->act_bytes_per_layer = s * b * h * coef;
		/* The formula counts 16-bit activations; fp32 training doubles them. */
		if (job->precision == GP_PREC_FP32)
			e->act_bytes_per_layer *= 2;
		e->activations = e->act_bytes_per_layer * m->layers;
		if (m->vocab > 0)
			e->logits = 4.0 * s * b * m->vocab;
	} else if (m->act_elems > 0) {
		e->rule = GP_MEM_RULE_CNN;
		e->act_bytes_per_elem = job->precision == GP_PREC_FP32 ? 4 : 2;
		e->activations = m->act_elems * b * e->act_bytes_per_elem;
	} else {
		e->rule = GP_MEM_RULE_STATES;
		e->note = "no per-layer data for this model: activations not counted";
	}
	e->overhead = margin * (e->states + e->activations + e->logits);
	e->total = e->states + e->activations + e->logits + e->overhead;
	return GP_OK;
}

int gp_memory_apply_margin(gp_job *job, double margin, int estimate_unknown, gp_error *err)
{
	gp_mem_estimate e;

	if (!job->gpu_mem_estimated && !(estimate_unknown && job->gpu_mem_mib <= 0 &&
					 job->more->model.params > 0))
		return GP_OK;
	if (gp_memory_estimate_margin(job, margin, &e, err))
		return GP_EINPUT;
	job->gpu_mem_mib = (int64_t)ceil(e.total / 1048576.0);
	job->gpu_mem_estimated = 1;
	return GP_OK;
}

/* ---- user layer lists ---- */

/* The source document's per-layer output size, for convolution and pooling alike:
 * floor((in + 2 * pad - kernel) / stride) + 1 (0 or less: no output). */
static long layer_out(long in, int k, int stride, int pad)
{
	long span = in + 2L * pad - k;

	return span < 0 ? 0 : span / stride + 1;
}

int gp_layer_stack(const gp_layer_spec *l, int n, int c, int h, int w, gp_layer_shape *out)
{
	long ch = c, hh = h, ww = w;
	int i;

	for (i = 0; i < n; i++) {
		gp_layer_shape *o = &out[i];
		double in_elems = (double)ch * (double)hh * (double)ww;

		memset(o, 0, sizeof(*o));
		switch (l[i].op) {
		case GP_LAYER_CONV:
			o->h = layer_out(hh, l[i].kh, l[i].stride, l[i].pad);
			o->w = layer_out(ww, l[i].kw, l[i].stride, l[i].pad);
			o->c = l[i].out;
			o->params = (double)l[i].kh * l[i].kw * (double)ch * l[i].out + l[i].out;
			o->fwd_flops = 2.0 * l[i].kh * l[i].kw * (double)ch * l[i].out *
				       (double)o->h * (double)o->w;
			break;
		case GP_LAYER_POOL:
			o->c = ch;
			if (l[i].kh <= 0) {
				o->h = o->w = 1; /* global pooling */
			} else {
				o->h = layer_out(hh, l[i].kh, l[i].stride, l[i].pad);
				o->w = layer_out(ww, l[i].kw, l[i].stride, l[i].pad);
			}
			break;
		default: /* GP_LAYER_FC: the input flattened */
			o->c = l[i].out;
			o->h = o->w = 1;
			o->params = in_elems * l[i].out + l[i].out;
			o->fwd_flops = 2.0 * in_elems * l[i].out;
			break;
		}
		if (o->h < 1 || o->w < 1) {
			o->in_h = hh;
			o->in_w = ww;
			return i;
		}
		o->in_h = hh;
		o->in_w = ww;
		o->elems = (double)o->c * (double)o->h * (double)o->w;
		ch = o->c;
		hh = o->h;
		ww = o->w;
	}
	return -1;
}
