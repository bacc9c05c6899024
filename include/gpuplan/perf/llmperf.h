/* Iteration time of a large-model job (`type: llm`) on a placement:
 * compute from the model's FLOPs and a fitted efficiency per GPU
 * generation and precision, tensor-parallel collectives on the links each
 * TP group got, pipeline point-to-point and bubble (interleaved or not),
 * data-parallel / FSDP reduce-scatter and all-gather with their overlap,
 * context-parallel ring exchanges and expert all-to-alls.  The collective
 * times come from the communication model (perf.h).  man gpuplan,
 * "Large-model jobs", has every formula with its source. */
#ifndef GPUPLAN_LLMPERF_H
#define GPUPLAN_LLMPERF_H

#include <stddef.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/model/job.h"
#include "gpuplan/model/placement.h"
#include "gpuplan/util/error.h"

/* Fitted constants (make validate-llm; man gpuplan gives the fit). */
typedef struct gp_llm_eff {
	const char *gpu;        /* generation: "ampere", "hopper", "blackwell" */
	double gemm_bf16;       /* achieved / dense bf16 peak on GEMMs */
	double gemm_fp8;        /* achieved / fp8 peak (0: no fp8 units) */
} gp_llm_eff;

enum gp_llm_term {
	GP_LLM_T_COMPUTE = 0, GP_LLM_T_TP, GP_LLM_T_CP, GP_LLM_T_EP, GP_LLM_T_BUBBLE,
	GP_LLM_T_P2P, GP_LLM_T_DP, GP_LLM_T_OPTIM, GP_LLM_T_COUNT
};
const char *gp_llm_term_name(int term);

/* Where one parallel group went. */
typedef struct gp_llm_group {
	int size;               /* ranks */
	int nodes;              /* nodes one group spans */
	int domains;            /* NVLink domains one group spans */
	double time_s;          /* one collective / transfer of the group */
	char where[200];        /* for people: links and why */
} gp_llm_group;

typedef struct gp_llm_perf {
	double iter_s;
	double tokens_per_s_per_gpu;
	double mfu;             /* model FLOPs / (time x GPUs x dense bf16 peak) */
	double model_flops;     /* per iteration */
	double term[GP_LLM_T_COUNT]; /* seconds per iteration on the critical path */
	double dp_total_s;      /* data-parallel communication before overlap */
	double tf_s, tb_s;      /* forward / backward of one micro-batch, one stage */
	double peak_tflops;     /* the GEMM peak used (bf16 or fp8) */
	double efficiency;      /* the GEMM efficiency used */
	int bound;              /* enum gp_llm_term: the largest term */
	int overhead;           /* the largest term other than compute */
	int gpus, nodes;
	gp_llm_group tp, cp, dp, pp, ep;
	char gpu[48];           /* GPU model of the first rank */
} gp_llm_perf;

/* The job's iteration time on placement p (its GPUs taken in order: rank
 * r = tp + t (cp + c (dp + d pp)), Megatron's default order).  GP_EINPUT
 * when the job is no llm job or p does not hold exactly its GPUs. */
int gp_perf_llm(const gp_cluster *c, const gp_job *j, const gp_placement *p, gp_llm_perf *out,
		gp_error *err);
/* The same with the GEMM efficiency eta (0..1] instead of the fitted one
 * (eta <= 0: the fitted one): `perf --gemm-efficiency`, and how
 * validate-llm fits the constants. */
int gp_perf_llm_eta(const gp_cluster *c, const gp_job *j, const gp_placement *p, double eta,
		    gp_llm_perf *out, gp_error *err);

/* The efficiency entry of a GPU model (never NULL). */
const gp_llm_eff *gp_perf_llm_eff(const gp_gpu_model *m);

#endif
