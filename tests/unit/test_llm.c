/* Large-model jobs: parameter counts, FLOPs and memory against
 * hand-computed numbers and the published formulas (Korthikanti et al.
 * 2022 Table 2, Narayanan et al. SC'21 §5.1). */
#include <string.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/jobspec.h"
#include "gpuplan/perf/llmperf.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/model/llm.h"
#include "gpuplan/model/memory.h"
#include "testlib.h"

static gp_llm preset(const char *name)
{
	const gp_llm_preset *p = gp_llm_preset_find(name);
	gp_llm l;

	memset(&l, 0, sizeof(l));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	l = p->shape;
	l.sp = -1;
	l.moments = 2;
	return l;
}

static void test_params(void)
{
	gp_llm l = preset("llama3-70b");
	gp_llm_params P;

	/* per layer: attention 2h^2 + 2h^2 g/a = 134217728 + 16777216,
	 * SwiGLU 3 h f = 704643072, two RMSNorms 2h = 16384: 855654400;
	 * 80 layers + two 128256 x 8192 tables + the final norm. */
	gp_llm_params_count(&l, &P);
	CU_ASSERT_DOUBLE_EQUAL(P.layer, 855654400.0, 0.5);
	CU_ASSERT_DOUBLE_EQUAL(P.total, 80 * 855654400.0 + 2 * 128256.0 * 8192 + 8192, 0.5);
	/* Mixtral 8x7B: 46.70 B in all, 12.88 B active (reference table). */
	l = preset("mixtral-8x7b");
	gp_llm_params_count(&l, &P);
	CU_ASSERT_DOUBLE_EQUAL(P.total / 1e9, 46.70, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(P.active / 1e9, 12.88, 0.01);
	/* GPT-3: 174.6 B with biases, LayerNorm, tied, learned positions. */
	l = preset("gpt3-175b");
	gp_llm_params_count(&l, &P);
	CU_ASSERT_DOUBLE_EQUAL(P.total / 1e9, 174.6, 0.05);
}

static void test_flops(void)
{
	gp_llm l;
	double B = 4, s = 32, L = 2, h = 64, V = 100;

	/* GPT layer (f = 4h, MHA): 72 B s L h^2 (1 + s/6h + V/12Lh). */
	memset(&l, 0, sizeof(l));
	l.layers = 2, l.hidden = 64, l.heads = 4, l.kv_heads = 4, l.ffn = 256, l.vocab = 100;
	l.seq_len = 32, l.global_batch = 4;
	CU_ASSERT_DOUBLE_EQUAL(gp_llm_model_flops(&l),
			       72 * B * s * L * h * h * (1 + s / (6 * h) + V / (12 * L * h)), 1);
}

static void test_complete_errors(void)
{
	gp_llm l = preset("llama3-70b");
	const char *field = "";
	char why[200];

	l.global_batch = 64;
	l.tp = 3;
	CU_ASSERT_EQUAL(gp_llm_complete(&l, 24, why, sizeof(why), &field), -1);
	CU_ASSERT_STRING_EQUAL(field, "tp");
	l = preset("llama3-70b");
	l.global_batch = 64;
	l.tp = 8;
	l.pp = 4;
	CU_ASSERT_EQUAL(gp_llm_complete(&l, 64, why, sizeof(why), &field), 0);
	CU_ASSERT_EQUAL(l.dp, 2); /* derived from the GPUs */
	CU_ASSERT_EQUAL(l.sp, 1); /* on by default with tp > 1 */
	l.dp = 4;
	CU_ASSERT_EQUAL(gp_llm_complete(&l, 64, why, sizeof(why), &field), -1);
	CU_ASSERT_STRING_EQUAL(field, "parallel");
}

/* Korthikanti et al. Table 2 on a GPT layer (dropout, s x s scores). */
static void test_korthikanti(void)
{
	gp_llm l = preset("gpt3-175b");
	gp_llm_mem m;
	double s = 2048, b = 1, h = 12288, a = 96, t = 8, sbh = s * b * h;
	const char *field;
	char why[200];

	l.flash = 0;
	l.global_batch = 8;
	l.tp = 8;
	l.sp = 1;
	CU_ASSERT_EQUAL_FATAL(gp_llm_complete(&l, 64, why, sizeof(why), &field), 0);
	gp_llm_memory(&l, &m);
	/* TP + SP: s b h / t (34 + 5 a s / h) */
	CU_ASSERT_DOUBLE_EQUAL(m.act_layer, sbh / t * (34 + 5 * a * s / h), 1);
	l.recompute = GP_RECOMP_SELECTIVE; /* TP + SP + selective: 34 s b h / t */
	gp_llm_memory(&l, &m);
	CU_ASSERT_DOUBLE_EQUAL(m.act_layer, 34 * sbh / t, 1);
	l.sp = 0; /* TP + selective: s b h (10 + 24 / t) */
	gp_llm_memory(&l, &m);
	CU_ASSERT_DOUBLE_EQUAL(m.act_layer, sbh * (10 + 24 / t), 1);
	l.recompute = GP_RECOMP_NONE; /* TP: s b h (10 + 24/t + 5 a s / (h t)) */
	gp_llm_memory(&l, &m);
	CU_ASSERT_DOUBLE_EQUAL(m.act_layer, sbh * (10 + 24 / t + 5 * a * s / (h * t)), 1);
	l.recompute = GP_RECOMP_FULL; /* the layer input only */
	gp_llm_memory(&l, &m);
	CU_ASSERT_DOUBLE_EQUAL(m.act_layer, 2 * sbh, 1);
}

/* The reference's worked example: Llama 3 70B, t 8, p 4, d 16, zero1. */
static void test_70b_stage0(void)
{
	gp_llm l = preset("llama3-70b");
	gp_llm_mem m;
	const char *field;
	char why[200];
	double local = (20 * 855638016.0 + 128256.0 * 8192) / 8 + 20 * 16384.0;
	double sbh = 8192.0 * 8192, act;

	l.tp = 8, l.pp = 4, l.vp = 5, l.global_batch = 512;
	l.sharding = GP_SHARD_ZERO1;
	l.recompute = GP_RECOMP_SELECTIVE;
	CU_ASSERT_EQUAL_FATAL(gp_llm_complete(&l, 512, why, sizeof(why), &field), 0);
	CU_ASSERT_EQUAL(l.dp, 16);
	gp_llm_memory(&l, &m);
	CU_ASSERT_EQUAL(m.stage, 0);
	CU_ASSERT_DOUBLE_EQUAL(m.params_local, local, 1);
	/* distributed optimizer: 2 + 4 + 12/16 bytes per parameter */
	CU_ASSERT_DOUBLE_EQUAL(m.weights + m.grads + m.optim, local * 6.75, 1);
	/* 8 s b h / t replicated part, then (s b h (4 + 4 g/a) + 6 s b f
	 * + 4 s b a) / t; 80 x (1 + 3/20) = 92 layers in flight */
	act = sbh + (sbh * 4.5 + 6 * 8192.0 * 28672 + 4 * 8192.0 * 64) / 8;
	CU_ASSERT_DOUBLE_EQUAL(m.act_layer, act, 1);
	CU_ASSERT_DOUBLE_EQUAL(m.inflight, 92, 1e-9);
	CU_ASSERT_EQUAL(m.microbatches, 32);
}

static void test_suggest(void)
{
	gp_llm l = preset("llama3-70b"), s;
	gp_llm_mem m;
	const char *field;
	char why[200];

	l.tp = 8, l.global_batch = 128, l.sharding = GP_SHARD_ZERO1;
	l.recompute = GP_RECOMP_SELECTIVE;
	CU_ASSERT_EQUAL_FATAL(gp_llm_complete(&l, 64, why, sizeof(why), &field), 0);
	gp_llm_memory(&l, &m);
	CU_ASSERT(m.total > 80.0 * (1 << 30)); /* 8.8 B parameters x 7.5 B each alone */
	CU_ASSERT_EQUAL_FATAL(gp_llm_suggest(&l, 64, 8, 80, &s, &m), 0);
	CU_ASSERT_EQUAL(s.tp, 8);
	CU_ASSERT_EQUAL(s.pp, 2); /* the smallest pipeline that fits */
	CU_ASSERT(m.total <= 80.0 * (1 << 30));
}

static void test_jobspec(void)
{
	gp_job j;
	gp_error err = GP_ERROR_INIT;
	gp_mem_estimate e;

	CU_ASSERT_EQUAL_FATAL(gp_jobspec_load("tests/data/llm/jobs/llama3-70b-64.yaml", &j, &err), 0);
	CU_ASSERT_EQUAL(j.type, GP_JOB_LLM);
	CU_ASSERT_EQUAL(j.gpus, 64);
	CU_ASSERT_EQUAL(j.more->llm.vp, 5);
	CU_ASSERT_EQUAL(j.more->llm.dp, 2);
	CU_ASSERT_EQUAL(gp_memory_estimate(&j, &e, &err), 0);
	CU_ASSERT_EQUAL(e.rule, GP_MEM_RULE_LLM);
	CU_ASSERT_EQUAL(j.gpu_mem_mib, (long long)((e.total + 1048575) / 1048576));
	gp_job_release(&j);
	CU_ASSERT_NOT_EQUAL(gp_jobspec_load("tests/data/llm/jobs/bad-tp-heads.yaml", &j, &err), 0);
	CU_ASSERT_EQUAL(err.line, 6);
}

/* Placement by parallel group, and the cost of a TP group that leaves its
 * NVLink domain: the 70B job of the issue on the bundled cluster. */
static void test_place_and_perf(void)
{
	gp_cluster c;
	gp_job j;
	gp_placement p;
	gp_alloc a;
	gp_rng rng;
	gp_policy_ctx ctx;
	gp_error err = GP_ERROR_INIT;
	gp_llm_perf r, rs;
	int i, k;

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_load(gp_test_path("topologies/example-cluster.yaml"), &c,
					      &err), 0);
	CU_ASSERT_EQUAL_FATAL(gp_jobspec_load("tests/data/llm/jobs/llama3-70b-64.yaml", &j, &err), 0);
	gp_placement_init(&p);
	CU_ASSERT_EQUAL_FATAL(gp_alloc_init(&a, &c), 0);
	gp_rng_seed(&rng, 1);
	memset(&ctx, 0, sizeof(ctx));
	ctx.cluster = &c;
	ctx.alloc = &a;
	ctx.rng = &rng;
	/* every policy lays it out the same way: 8 whole H100 nodes */
	CU_ASSERT_EQUAL_FATAL(gp_policy_find("spread")->place(&ctx, &j, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.nparts, 8);
	for (i = 0; i < p.nparts; i++) {
		CU_ASSERT_EQUAL(p.parts[i].ngpus, 8);
		CU_ASSERT_STRING_EQUAL(gp_cluster_node_model(&c, p.parts[i].node)->name,
				       "H100-SXM5-80GB");
	}
	CU_ASSERT_EQUAL_FATAL(gp_perf_llm(&c, &j, &p, &r, &err), 0);
	CU_ASSERT_EQUAL(r.tp.nodes, 1);
	CU_ASSERT_EQUAL(r.pp.nodes, 2); /* stage 1 starts two nodes on */
	CU_ASSERT_EQUAL(r.dp.nodes, 2);
	CU_ASSERT(r.iter_s > 0 && r.mfu > 0 && r.mfu < 1);
	/* tokens/s per GPU is the batch's tokens over time and GPUs */
	CU_ASSERT_DOUBLE_EQUAL(r.tokens_per_s_per_gpu, 128.0 * 8192 / (r.iter_s * 64), 1e-6);
	{
		/* rank order follows the parts: re-sort into 8 parts of one GPU
		 * index each so that ranks 0..7 sit on 8 nodes */
		gp_placement one;

		gp_placement_init(&one);
		for (k = 0; k < 8; k++)
			for (i = 0; i < 8; i++) {
				gp_place_part *q = gp_placement_add(&one, p.parts[i].node);

				q->gpus[q->ngpus++] = k;
			}
		CU_ASSERT_EQUAL_FATAL(gp_perf_llm(&c, &j, &one, &rs, &err), 0);
		CU_ASSERT_EQUAL(rs.tp.nodes, 8);
		CU_ASSERT(rs.term[GP_LLM_T_TP] > 1.5 * r.term[GP_LLM_T_TP]);
		CU_ASSERT(rs.iter_s > r.iter_s);
		CU_ASSERT_DOUBLE_EQUAL(rs.term[GP_LLM_T_COMPUTE], r.term[GP_LLM_T_COMPUTE], 1e-9);
		gp_placement_release(&one);
	}
	gp_placement_release(&p);
	gp_alloc_release(&a);
	gp_job_release(&j);
	gp_cluster_release(&c);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("llm");

	gp_test_add(s, "parameter counts", test_params);
	gp_test_add(s, "model FLOPs", test_flops);
	gp_test_add(s, "layout checks", test_complete_errors);
	gp_test_add(s, "Korthikanti activations", test_korthikanti);
	gp_test_add(s, "70B first stage", test_70b_stage0);
	gp_test_add(s, "suggested layout", test_suggest);
	gp_test_add(s, "job file", test_jobspec);
	gp_test_add(s, "placement and iteration time", test_place_and_perf);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
