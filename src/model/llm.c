/* Large-model jobs: presets, checks, parameter and FLOP counts, per-GPU
 * memory (llm.h).  Formulas and their sources: man gpuplan, "Large-model
 * jobs"; llm-training-model.md in the design references. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/model/llm.h"
#include "gpuplan/util/util.h"

#define GIB 1073741824.0

/* Model shapes: layers, hidden, heads, kv heads, ffn, vocab, seq, experts,
 * top-k, expert ffn, gated, tied, bias, dropout. */
#define SHAPE(L, H, A, G, F, V, S, E, K, FE, gated, tied, bias, drop) \
	{ "", L, H, A, G, F, V, S, E, K, FE, gated, tied, bias, drop, 0, 0, 0, 0, 1, 0, \
	  0, 0, 0, 0, 0, 0, 0, 0, 0 }

static const gp_llm_preset presets[] = {
	{ "gpt3-175b", "Brown et al. 2020 (arXiv:2005.14165) Table 2.1",
	  SHAPE(96, 12288, 96, 96, 49152, 50257, 2048, 0, 0, 0, 0, 1, 1, 1) },
	{ "llama2-7b", "Touvron et al. 2023 (arXiv:2307.09288); HF config",
	  SHAPE(32, 4096, 32, 32, 11008, 32000, 4096, 0, 0, 0, 1, 0, 0, 0) },
	{ "llama2-13b", "Touvron et al. 2023 (arXiv:2307.09288); HF config",
	  SHAPE(40, 5120, 40, 40, 13824, 32000, 4096, 0, 0, 0, 1, 0, 0, 0) },
	{ "llama2-70b", "Touvron et al. 2023 (arXiv:2307.09288); HF config",
	  SHAPE(80, 8192, 64, 8, 28672, 32000, 4096, 0, 0, 0, 1, 0, 0, 0) },
	{ "llama3-8b", "Llama 3 (arXiv:2407.21783) Table 3; torchtitan llama3",
	  SHAPE(32, 4096, 32, 8, 14336, 128256, 8192, 0, 0, 0, 1, 0, 0, 0) },
	{ "llama3-70b", "Llama 3 (arXiv:2407.21783) Table 3; torchtitan llama3",
	  SHAPE(80, 8192, 64, 8, 28672, 128256, 8192, 0, 0, 0, 1, 0, 0, 0) },
	{ "llama3-405b", "Llama 3 (arXiv:2407.21783) Table 3; torchtitan llama3",
	  SHAPE(126, 16384, 128, 8, 53248, 128256, 8192, 0, 0, 0, 1, 0, 0, 0) },
	{ "mixtral-8x7b", "Jiang et al. 2024 (arXiv:2401.04088) Table 1",
	  SHAPE(32, 4096, 32, 8, 14336, 32000, 4096, 8, 2, 14336, 1, 0, 0, 0) },
	{ "mixtral-8x22b", "Mistral AI model card (HF config)",
	  SHAPE(56, 6144, 48, 8, 16384, 32768, 4096, 8, 2, 16384, 1, 0, 0, 0) },
	{ "nemotron4-340b", "Nemotron-4 340B report (arXiv:2406.11704) Table 1",
	  SHAPE(96, 18432, 96, 8, 73728, 256000, 4096, 0, 0, 0, 0, 0, 0, 0) },
};

const gp_llm_preset *gp_llm_preset_list(int *n)
{
	*n = (int)GP_ARRAY_SIZE(presets);
	return presets;
}

const gp_llm_preset *gp_llm_preset_find(const char *name)
{
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(presets); i++)
		if (!strcasecmp(name, presets[i].name))
			return &presets[i];
	if (!strcasecmp(name, "llama3.1-405b") || !strcasecmp(name, "llama3.1-70b") ||
	    !strcasecmp(name, "llama3.1-8b"))
		return gp_llm_preset_find(name[7] == '4' ? "llama3-405b" :
					  name[7] == '7' ? "llama3-70b" : "llama3-8b");
	if (!strcasecmp(name, "gpt3"))
		return &presets[0];
	return NULL;
}

const char *gp_llm_node_domain(const gp_cluster *c, int node)
{
	const gp_node *n = &c->nodes[node];
	int i;

	for (i = 0; i < n->nlabels; i++)
		if (!strcmp(n->labels[i].key, "nvlink_domain"))
			return n->labels[i].value;
	return NULL;
}

static const char *const prec_names[] = { "bf16", "fp16", "fp8" };
static const char *const shard_names[] = { "none", "zero1", "zero2", "zero3", "fsdp", "hsdp" };
static const char *const recomp_names[] = { "none", "selective", "full" };

static int find(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(s, names[i]))
			return (int)i;
	return -1;
}

const char *gp_llm_prec_name(int p)
{
	return p >= 0 && (size_t)p < GP_ARRAY_SIZE(prec_names) ? prec_names[p] : "?";
}

int gp_llm_prec_parse(const char *s)
{
	return find(prec_names, GP_ARRAY_SIZE(prec_names), s);
}

const char *gp_llm_shard_name(int s)
{
	return s >= 0 && (size_t)s < GP_ARRAY_SIZE(shard_names) ? shard_names[s] : "?";
}

int gp_llm_shard_parse(const char *s)
{
	if (!strcasecmp(s, "zero0") || !strcasecmp(s, "ddp"))
		return GP_SHARD_NONE;
	if (!strcasecmp(s, "distopt") || !strcasecmp(s, "distributed-optimizer"))
		return GP_SHARD_ZERO1;
	return find(shard_names, GP_ARRAY_SIZE(shard_names), s);
}

const char *gp_llm_recompute_name(int r)
{
	return r >= 0 && (size_t)r < GP_ARRAY_SIZE(recomp_names) ? recomp_names[r] : "?";
}

int gp_llm_recompute_parse(const char *s)
{
	return find(recomp_names, GP_ARRAY_SIZE(recomp_names), s);
}

#define FAIL(f, ...) \
	do { \
		snprintf(why, n, __VA_ARGS__); \
		*field = f; \
		return -1; \
	} while (0)

int gp_llm_complete(gp_llm *l, int gpus, char *why, size_t n, const char **field)
{
	long long grid;

	if (l->layers < 1 || l->hidden < 1 || l->heads < 1 || l->vocab < 1 || l->seq_len < 1)
		FAIL("model", "the model needs layers, hidden, heads, vocab and seq_len (or a preset)");
	if (l->kv_heads <= 0)
		l->kv_heads = l->heads;
	if (l->hidden % l->heads)
		FAIL("heads", "heads (%d) must divide hidden (%d)", l->heads, l->hidden);
	if (l->kv_heads > l->heads || l->heads % l->kv_heads)
		FAIL("kv_heads", "kv_heads (%d) must divide heads (%d)", l->kv_heads, l->heads);
	if (l->ffn <= 0)
		l->ffn = l->gated ? (int)(256 * ceil(8.0 * l->hidden / 3 / 256)) : 4 * l->hidden;
	if (l->experts > 0) {
		if (l->top_k <= 0)
			l->top_k = 2;
		if (l->top_k > l->experts)
			FAIL("top_k", "top_k (%d) exceeds the experts (%d)", l->top_k, l->experts);
		if (l->expert_ffn <= 0)
			l->expert_ffn = l->ffn;
	} else if (l->top_k > 0 || l->expert_ffn > 0) {
		FAIL("experts", "top_k and expert_ffn need experts");
	}
	if (l->tp <= 0)
		l->tp = 1;
	if (l->pp <= 0)
		l->pp = 1;
	if (l->cp <= 0)
		l->cp = 1;
	if (l->vp <= 0)
		l->vp = 1;
	if (l->ep <= 0)
		l->ep = 1;
	if (l->micro_batch <= 0)
		l->micro_batch = 1;
	if (l->moments < 0 || l->moments > 2)
		l->moments = 2;
	grid = (long long)l->tp * l->pp * l->cp;
	if (grid > gpus)
		FAIL("parallel", "tp x pp x cp = %lld exceeds the %d GPUs", grid, gpus);
	if (l->dp <= 0) {
		if (gpus % grid)
			FAIL("parallel", "tp x pp x cp = %lld does not divide the %d GPUs (dp would not "
			     "be whole)", grid, gpus);
		l->dp = (int32_t)(gpus / grid);
	} else if (grid * l->dp != gpus) {
		FAIL("parallel", "tp x pp x cp x dp = %d x %d x %d x %d = %lld, not the %d GPUs", l->tp,
		     l->pp, l->cp, l->dp, grid * l->dp, gpus);
	}
	if (l->heads % l->tp)
		FAIL("tp", "tp (%d) must divide the heads (%d)", l->tp, l->heads);
	if (l->kv_heads % l->tp)
		FAIL("tp", "tp (%d) must divide the kv_heads (%d)", l->tp, l->kv_heads);
	if (l->vp > 1 && l->pp < 2)
		FAIL("vp", "vp (virtual stages) needs pp > 1");
	if ((long long)l->pp * l->vp > l->layers) /* uneven stages are allowed */
		FAIL(l->vp > 1 ? "vp" : "pp", "pp x vp = %d x %d exceeds the layers (%d)", l->pp,
		     l->vp, l->layers);
	if (l->cp > 1 && l->seq_len % (2 * l->cp))
		FAIL("cp", "cp (%d): seq_len (%d) must divide into 2 x cp chunks", l->cp, l->seq_len);
	if (l->ep > 1 && l->experts <= 0)
		FAIL("ep", "ep (%d) needs a model with experts", l->ep);
	if (l->experts > 0 && l->experts % l->ep)
		FAIL("ep", "ep (%d) must divide the experts (%d)", l->ep, l->experts);
	if (((long long)l->cp * l->dp) % l->ep)
		FAIL("ep", "ep (%d) must divide cp x dp (%d)", l->ep, l->cp * l->dp);
	if (l->sp < 0)
		l->sp = l->tp > 1;
	if (l->sp && l->tp < 2)
		FAIL("sp", "sequence parallelism (sp) needs tp > 1");
	if (l->global_batch <= 0)
		FAIL("global_batch", "an llm job needs global_batch (sequences per iteration)");
	if (l->global_batch % ((long long)l->micro_batch * l->dp))
		FAIL("global_batch", "global_batch (%d) must be a multiple of micro_batch x dp = %d x %d",
		     l->global_batch, l->micro_batch, l->dp);
	if (l->sharding == GP_SHARD_HSDP) {
		long long d = (long long)l->dp * l->cp;

		if (l->shard_group <= 0)
			l->shard_group = (int32_t)(d < 8 ? d : 8);
		if (d % l->shard_group)
			FAIL("sharding", "the hsdp shard group (%d) must divide dp x cp (%lld)",
			     l->shard_group, d);
	}
	return 0;
}

void gp_llm_params_count(const gp_llm *l, gp_llm_params *p)
{
	double h = l->hidden, dh = (double)l->hidden / l->heads, q = l->heads * dh;
	double kv = l->kv_heads * dh, phi = l->gated ? 3 : 2;
	double attn = h * q + 2 * h * kv + q * h, mlp = phi * h * l->ffn;
	double norm = l->bias ? 4 * h : 2 * h, router = 0, routed = 0, active_mlp;

	if (l->bias) {
		attn += q + 2 * kv + h;
		mlp += l->ffn + h;
	}
	if (l->experts > 0) {
		router = h * l->experts;
		routed = l->experts * phi * h * l->expert_ffn;
		active_mlp = l->top_k * phi * h * l->expert_ffn;
		mlp = 0;
	} else {
		active_mlp = mlp;
	}
	p->layer_tp = attn + mlp;
	p->layer_rep = norm + router;
	p->layer_exp = routed;
	p->layer = p->layer_tp + p->layer_rep + p->layer_exp;
	p->embed = (double)l->vocab * h;
	p->total = l->layers * p->layer + p->embed * (l->tied ? 1 : 2) + (l->bias ? 2 * h : h);
	if (l->bias) /* learned positions (GPT-3) */
		p->total += (double)l->seq_len * h;
	p->active = l->experts > 0 ? p->total - l->layers * (routed - active_mlp) : p->total;
}

double gp_llm_model_flops(const gp_llm *l)
{
	double h = l->hidden, dh = (double)l->hidden / l->heads, q = l->heads * dh;
	double kv = l->kv_heads * dh, phi = l->gated ? 3 : 2;
	double f = l->experts > 0 ? (double)l->top_k * l->expert_ffn : l->ffn;
	double tokens = (double)l->global_batch * l->seq_len;
	double mat = l->layers * (h * (q + 2 * kv) + q * h + phi * h * f) + h * l->vocab;

	return 6 * tokens * mat + 12.0 * l->layers * q * l->seq_len * tokens;
}

/* Model-state bytes per parameter (weights, gradients, optimizer) held by
 * a rank whose states shard over D ranks. */
static void bpp(const gp_llm *l, double D, double *w, double *g, double *o)
{
	double os = 4 + 4.0 * l->moments; /* fp32 master + moments */

	switch (l->sharding) {
	case GP_SHARD_ZERO1:
		*w = 2, *g = 4, *o = os / D;
		break;
	case GP_SHARD_ZERO2:
		*w = 2, *g = 4 / D, *o = os / D;
		break;
	case GP_SHARD_ZERO3:
	case GP_SHARD_FSDP:
	case GP_SHARD_HSDP:
		*w = 0, *g = 4 / D, *o = os / D;
		break;
	default:
		*w = 2, *g = 4, *o = os;
		break;
	}
}

/* One layer's activations for one micro-batch (bytes): Korthikanti et al.
 * 2022 §4, generalised to GQA, SwiGLU and fused attention. */
static double act_layer(const gp_llm *l, int recompute_mode)
{
	double t = l->tp, s = (double)l->seq_len / l->cp, b = l->micro_batch, h = l->hidden;
	double sbh = s * b * h, ga = (double)l->kv_heads / l->heads;
	double rep = (8 + 2.0 * l->dropout) * sbh, tpart, core;
	double f = l->experts > 0 ? (double)l->expert_ffn * l->top_k : l->ffn;

	if (recompute_mode == GP_RECOMP_FULL)
		return 2 * sbh / (l->sp ? t : 1);
	tpart = sbh * (4 + 4 * ga) + (l->gated ? 6 : 4) * s * b * f;
	if (l->experts > 0)
		tpart += 4.0 * l->top_k * sbh; /* permuted tokens in and out */
	if (l->flash)
		core = 4 * s * b * l->heads; /* fp32 softmax statistics */
	else
		core = (2 + 3.0 * l->dropout) * l->heads * s * (double)l->seq_len * b;
	if (recompute_mode == GP_RECOMP_SELECTIVE)
		core = l->flash ? core : 0;
	return rep / (l->sp ? t : 1) + (tpart + core) / t;
}

double gp_llm_stage_layers(const gp_llm *l)
{
	int chunks = l->pp * (l->vp > 0 ? l->vp : 1);

	return (double)((l->layers + chunks - 1) / chunks) * (l->vp > 0 ? l->vp : 1);
}

static void stage_memory(const gp_llm *l, int last, gp_llm_mem *m)
{
	gp_llm_params P;
	double t = l->tp, p = l->pp, Lp = gp_llm_stage_layers(l), D = (double)l->dp * l->cp;
	double De = D / l->ep, dense, exp, w, g, o, we, ge, oe, mb, infl;
	double s = (double)l->seq_len / l->cp, b = l->micro_batch;
	int groups = (l->tp > 1) + (l->pp > 1) + (l->cp > 1) + (l->dp > 1) + (l->ep > 1);

	gp_llm_params_count(l, &P);
	dense = (P.layer_tp * Lp + P.embed) / t + P.layer_rep * Lp;
	if (l->pp == 1 && !l->tied)
		dense += P.embed / t; /* the output layer on the same rank */
	exp = P.layer_exp * Lp / (t * l->ep);
	if (l->sharding == GP_SHARD_HSDP)
		D = l->shard_group, De = D / l->ep < 1 ? 1 : D / l->ep;
	bpp(l, D, &w, &g, &o);
	bpp(l, De, &we, &ge, &oe);
	m->params_local = dense + exp;
	m->shard_ranks = D;
	m->weights = dense * w + exp * we;
	m->grads = dense * g + exp * ge;
	m->optim = dense * o + exp * oe;
	m->fp8_copy = 0;
	m->fsdp_units = 0;
	if (l->sharding >= GP_SHARD_ZERO3) /* two units in flight: bf16 params + grads */
		m->fsdp_units = 2 * ((P.layer_tp + P.layer_exp / l->ep) / t + P.layer_rep) * 4;
	if (l->precision == GP_LLM_FP8) /* fp8 copy and its transpose */
		m->fp8_copy = (l->sharding >= GP_SHARD_ZERO3 ? 0 : 2 * m->params_local) +
			      (l->sharding >= GP_SHARD_ZERO3 ? m->fsdp_units / 4 : 0);
	mb = (double)l->global_batch / ((double)l->micro_batch * l->dp);
	m->microbatches = (int)mb;
	m->act_layer = act_layer(l, l->recompute);
	if (!last) {
		infl = Lp * p * (l->vp > 1 ? 1 + (p - 1) / (p * l->vp) : 1.0);
		if (mb < p)
			infl *= mb / p;
		if (l->pp == 1)
			infl = l->layers;
	} else {
		infl = Lp;
	}
	m->inflight = infl;
	m->activations = m->act_layer * infl;
	if (l->recompute == GP_RECOMP_FULL) /* one layer rebuilt at a time */
		m->activations += act_layer(l, GP_RECOMP_SELECTIVE);
	m->embed_act = 0;
	if (!last && l->dropout)
		m->embed_act += s * b * l->hidden * (l->pp > 1 ? p : 1);
	if (last || l->pp == 1) /* final norm output and fp32 logits */
		m->embed_act += 4 * s * b * l->hidden * (1 + (double)l->vocab / l->hidden) / t;
	m->allowance = (GP_LLM_ALLOW_FIXED_GIB + GP_LLM_ALLOW_GROUP_GIB * groups) * GIB;
	m->total = m->weights + m->grads + m->optim + m->fp8_copy + m->fsdp_units +
		   m->activations + m->embed_act + m->allowance;
	m->stage = last;
}

void gp_llm_memory(const gp_llm *l, gp_llm_mem *m)
{
	gp_llm_mem last;

	memset(m, 0, sizeof(*m));
	stage_memory(l, 0, m);
	if (l->pp > 1) {
		memset(&last, 0, sizeof(last));
		stage_memory(l, 1, &last);
		if (last.total > m->total)
			*m = last;
	}
}

static int fits(gp_llm *c, double cap, gp_llm_mem *mem)
{
	gp_llm_mem m;

	if (c->global_batch % ((long long)c->micro_batch * c->dp))
		return 0;
	gp_llm_memory(c, &m);
	if (m.total > cap)
		return 0;
	if (mem)
		*mem = m;
	return 1;
}

int gp_llm_suggest(const gp_llm *l, int gpus, int domain, double cap_gib, gp_llm *out,
		   gp_llm_mem *mem)
{
	static const int recomps[] = { -1, GP_RECOMP_SELECTIVE, GP_RECOMP_FULL };
	int r, prod, t, pass;

	for (pass = 0; pass < 2; pass++) /* pass 1: with the distributed optimizer */
		for (r = 0; r < 3; r++)
			for (prod = 1; prod <= gpus; prod *= 2)
				for (t = domain < prod ? domain : prod; t >= 1; t /= 2) {
					gp_llm c = *l;
					int p = prod / t;

					if (t * p != prod || l->heads % t || l->kv_heads % t ||
					    l->layers % p || gpus % ((long long)prod * l->cp))
						continue;
					if (recomps[r] >= 0 && recomps[r] <= l->recompute)
						continue;
					c.tp = t;
					c.pp = p;
					c.vp = l->vp > 1 && p > 1 && l->layers % (p * l->vp) == 0 ? l->vp : 1;
					c.sp = t > 1;
					c.dp = gpus / (prod * l->cp);
					if (c.ep > 1 && (c.cp * c.dp) % c.ep)
						continue;
					if (recomps[r] >= 0)
						c.recompute = (int8_t)recomps[r];
					if (pass && c.sharding == GP_SHARD_NONE)
						c.sharding = GP_SHARD_ZERO1;
					else if (pass)
						continue;
					if (c.sharding == GP_SHARD_HSDP &&
					    ((long long)c.dp * c.cp) % (c.shard_group > 0 ? c.shard_group : 1))
						continue;
					if (fits(&c, cap_gib * GIB, mem)) {
						*out = c;
						return 0;
					}
				}
	return -1;
}
