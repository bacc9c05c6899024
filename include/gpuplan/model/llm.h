/* Large-model training jobs (`type: llm`): a decoder-only transformer
 * trained with tensor (tp), pipeline (pp, vp virtual stages), context (cp),
 * expert (ep) and data (dp) parallelism, ZeRO/FSDP sharding and activation
 * recomputation.  This module holds the description, its presets and
 * checks, the parameter and FLOP counts and the per-GPU memory estimate;
 * the iteration time is in perf (gp_perf_llm).  man gpuplan, "Large-model
 * jobs", gives every formula with its source. */
#ifndef GPUPLAN_LLM_H
#define GPUPLAN_LLM_H

#include <stddef.h>
#include <stdint.h>

enum gp_llm_prec { GP_LLM_BF16 = 0, GP_LLM_FP16, GP_LLM_FP8 };
enum gp_llm_shard {
	GP_SHARD_NONE = 0, GP_SHARD_ZERO1, GP_SHARD_ZERO2, GP_SHARD_ZERO3, GP_SHARD_FSDP,
	GP_SHARD_HSDP
};
enum gp_llm_recompute { GP_RECOMP_NONE = 0, GP_RECOMP_SELECTIVE, GP_RECOMP_FULL };

#define GP_LLM_MAX_DIM 1048576 /* cap on every shape and parallel size */

/* The model and the layout.  All zero = no LLM description. */
typedef struct gp_llm {
	char preset[24];        /* preset name, "" when given inline */
	int32_t layers, hidden, heads, kv_heads, ffn, vocab, seq_len;
	int32_t experts, top_k, expert_ffn; /* MoE: 0 experts = dense */
	int8_t gated;           /* 1: SwiGLU MLP (3 matrices), 0: GeLU (2) */
	int8_t tied;            /* input and output embeddings shared */
	int8_t bias;            /* GPT-style biases and LayerNorm */
	int8_t dropout;         /* dropout masks are stored */
	int8_t precision;       /* enum gp_llm_prec */
	int8_t sharding;        /* enum gp_llm_shard */
	int8_t recompute;       /* enum gp_llm_recompute */
	int8_t sp;              /* sequence parallelism */
	int8_t flash;           /* fused attention: no s x s tensor stored */
	int8_t moments;         /* optimizer moments: 2 adam, 1 momentum, 0 sgd */
	int32_t tp, pp, cp, dp, vp, ep;
	int32_t shard_group;    /* hsdp: GPUs a shard spans (0 = 8) */
	int32_t global_batch, micro_batch; /* sequences */
} gp_llm;

struct gp_cluster;
/* The multi-node NVLink domain of a node: the value of its label
 * `nvlink_domain` (a GB200 NVL72 rack), NULL when it has none (the node
 * is its own domain). */
const char *gp_llm_node_domain(const struct gp_cluster *c, int node);

/* A named model shape (man gpuplan lists them with their sources). */
typedef struct gp_llm_preset {
	const char *name;
	const char *source;
	gp_llm shape;           /* model fields only */
} gp_llm_preset;

const gp_llm_preset *gp_llm_preset_find(const char *name);
const gp_llm_preset *gp_llm_preset_list(int *n);

const char *gp_llm_prec_name(int p);
int gp_llm_prec_parse(const char *s);
const char *gp_llm_shard_name(int s);
int gp_llm_shard_parse(const char *s);
const char *gp_llm_recompute_name(int r);
int gp_llm_recompute_parse(const char *s);

/* Check a description for `gpus` GPUs; derives dp when it is 0 and
 * defaults (vp, ep, micro_batch 1; ffn).  On error: returns -1, the
 * message in why and in *field the key it is about ("tp", "gpus", ...). */
int gp_llm_complete(gp_llm *l, int gpus, char *why, size_t n, const char **field);

/* Parameter counts. */
typedef struct gp_llm_params {
	double total;           /* whole model */
	double active;          /* per token (MoE: top_k experts) */
	double layer;           /* one transformer layer (dense part + experts) */
	double layer_tp;        /* of it, split by tp (attention, dense MLP) */
	double layer_rep;       /* of it, replicated over tp (norms, router) */
	double layer_exp;       /* of it, routed experts (split by ep x tp) */
	double embed;           /* one embedding table, V x h */
} gp_llm_params;
void gp_llm_params_count(const gp_llm *l, gp_llm_params *p);

/* Layers of the most loaded pipeline stage: ceil(L / (pp vp)) x vp
 * (stages may be uneven, as torchtitan splits them). */
double gp_llm_stage_layers(const gp_llm *l);

/* Model FLOPs of one iteration (no recomputation; causal attention not
 * discounted): 6 x tokens x matmul parameters + 12 L q s x tokens. */
double gp_llm_model_flops(const gp_llm *l);

/* Per-GPU memory of the most loaded pipeline stage (bytes). */
typedef struct gp_llm_mem {
	double params_local;    /* parameters the rank holds */
	double shard_ranks;     /* D: ranks the sharded states spread over */
	double weights, grads, optim; /* model states */
	double fp8_copy;        /* fp8 weight copies */
	double fsdp_units;      /* unsharded units in flight (zero3/fsdp) */
	double act_layer;       /* activations of one layer, one micro-batch */
	double inflight;        /* layers' worth of micro-batches held */
	double activations;     /* act_layer x inflight (+ working layer) */
	double embed_act;       /* embedding / logit buffers */
	double allowance;       /* framework, NCCL and allocator allowance */
	double total;
	int stage;              /* 0 = first stage, 1 = last stage */
	int microbatches;       /* m = global / (micro x dp) */
} gp_llm_mem;
void gp_llm_memory(const gp_llm *l, gp_llm_mem *m);

/* The allowance constants (man gpuplan): fixed per GPU plus per
 * parallel dimension of size > 1 (its communicators' NCCL buffers). */
#define GP_LLM_ALLOW_FIXED_GIB 2.0
#define GP_LLM_ALLOW_GROUP_GIB 0.5

/* A layout that fits `cap_gib` per GPU on `gpus` GPUs with at most
 * `domain` GPUs per NVLink domain: the smallest tp x pp (tp up to the
 * domain, then pp), keeping cp, sharding, recompute and batches; with
 * recompute and sharding raised when needed.  Returns 0 and fills out,
 * -1 when none fits. */
int gp_llm_suggest(const gp_llm *l, int gpus, int domain, double cap_gib, gp_llm *out,
		   gp_llm_mem *mem);

#endif
