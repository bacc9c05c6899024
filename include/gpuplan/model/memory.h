/* GPU memory need of a training job, per GPU (data parallel: every GPU
 * holds a full replica of the model states and the activations of its own
 * batch).  Two rules:
 *  - CNN (US 12386666): sum of per-layer output sizes x batch
 *    x activation bytes + parameters + gradients + optimizer state;
 *  - transformer (models-and-failures.md §D): bytes per parameter by
 *    optimizer and precision (16 for mixed-precision Adam) + activations
 *    per layer s*b*h*(34 + 5*a*s/h) (Korthikanti et al.) x layers + fp32
 *    logits 4*s*b*V.
 * No margin by default (the source document's formula as it stands); a margin for
 * allocator fragmentation and buffers is a caller's choice
 * (gp_memory_estimate_margin, `estimate --memory-margin`). */
#ifndef GPUPLAN_MEMORY_H
#define GPUPLAN_MEMORY_H

#include "gpuplan/util/error.h"
#include "gpuplan/model/job.h"
#include "gpuplan/model/llm.h"

#define GP_MEM_MARGIN_DEFAULT 0.0 /* fraction */
#define GP_MEM_MARGIN_MAX 10.0    /* 1000 %: a validation limit */

enum gp_mem_rule {
	GP_MEM_RULE_CNN = 0,       /* seed: per-layer outputs */
	GP_MEM_RULE_TRANSFORMER,   /* bytes/param + per-layer activations */
	GP_MEM_RULE_STATES,        /* model states only: no activation data */
	GP_MEM_RULE_LLM,           /* type llm: gp_llm_memory (llm.h) */
};

typedef struct gp_mem_estimate {
	int rule;                   /* enum gp_mem_rule */
	int batch;                  /* per-GPU batch used */
	double weight_bpp, grad_bpp, optim_bpp; /* bytes per parameter */
	double act_bytes_per_elem;  /* CNN rule */
	double act_bytes_per_layer; /* transformer rule */
	double weights, grads, optim;   /* bytes */
	double states;                  /* weights + grads + optim */
	double activations;             /* per-layer activations */
	double logits;                  /* transformer output logits */
	double margin;                  /* fraction added on top */
	double overhead;                /* margin x the above */
	double total;                   /* bytes per GPU */
	const char *note;               /* caveat, or NULL */
	gp_llm_mem llm;                 /* rule llm: the whole breakdown */
} gp_mem_estimate;

/* Bytes per parameter of weights, gradients and optimizer state. */
void gp_memory_bytes_per_param(int optimizer, int precision, double *weight,
			       double *grad, double *optim);

/* Estimate from the job's model descriptor, batch size, optimizer and
 * precision.  Fails (GP_EINPUT, message without location) when the job
 * has no model parameters. */
int gp_memory_estimate(const gp_job *job, gp_mem_estimate *out, gp_error *err);
/* The same with a margin (a fraction, 0 to GP_MEM_MARGIN_MAX) on top. */
int gp_memory_estimate_margin(const gp_job *job, double margin, gp_mem_estimate *out,
			      gp_error *err);

/* Re-estimate a job whose per-GPU memory came from the estimator
 * (gpu_mem_estimated) with margin (a fraction) on top; with
 * estimate_unknown, also a job that gives no memory but whose model has
 * parameters (trace jobs naming a model).  Other jobs are left alone. */
int gp_memory_apply_margin(gp_job *job, double margin, int estimate_unknown, gp_error *err);

/* A layer of a user's layer list (job YAML 'model: {layer_list: [...]}'). */
enum gp_layer_op { GP_LAYER_CONV = 0, GP_LAYER_POOL, GP_LAYER_FC };

typedef struct gp_layer_spec {
	int op;                 /* enum gp_layer_op */
	int out;                /* conv: output channels; fc: output features */
	int kh, kw;             /* kernel; pooling 0 = global (output 1 x 1) */
	int stride, pad;        /* stride >= 1, padding >= 0 */
} gp_layer_spec;

typedef struct gp_layer_shape {
	long c, h, w;           /* output shape */
	long in_h, in_w;        /* the layer's input size */
	double elems;           /* c x h x w per sample */
	double params;          /* weights and biases (conv, fc) */
	double fwd_flops;       /* forward multiply-adds x 2 per sample */
} gp_layer_shape;

/* Walk layers l[0..n) from an input of c x h x w with the source document's rule
 * (floor((in + 2 pad - kernel) / stride) + 1 for convolution and pooling;
 * a fully connected layer flattens its input) into out[0..n).  Returns -1,
 * or the index of the first layer with no output (its in_h/in_w set). */
int gp_layer_stack(const gp_layer_spec *l, int n, int c, int h, int w, gp_layer_shape *out);

const char *gp_optimizer_name(int opt);
int gp_optimizer_parse(const char *s);     /* -1 when unknown */
const char *gp_precision_name(int prec);
int gp_precision_parse(const char *s);     /* -1 when unknown */

#endif
