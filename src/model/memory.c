/* The memory estimator (memory.h). */
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
	const gp_model_desc *m = &job->model;
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
