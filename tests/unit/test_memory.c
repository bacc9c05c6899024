/* Memory estimator: hand-computed numbers (models-and-failures.md §D). */
#include <string.h>

#include "gpuplan/io/jobspec.h"
#include "gpuplan/model/memory.h"
#include "gpuplan/model/dlmodels.h"
#include "gpuplan/io/yaml.h"
#include "gpuplan/model/cluster.h"
#include "testlib.h"

static void test_bytes_per_param(void)
{
	double w, g, o;

	/* ZeRO §3.1: mixed-precision Adam = 2 + 2 + 12 = 16 bytes/param. */
	gp_memory_bytes_per_param(GP_OPT_ADAM, GP_PREC_MIXED, &w, &g, &o);
	CU_ASSERT_DOUBLE_EQUAL(w + g + o, 16, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(o, 12, 1e-12);
	/* Mixed-precision SGD with momentum: 2 + 2 + 8 = 12. */
	gp_memory_bytes_per_param(GP_OPT_MOMENTUM, GP_PREC_MIXED, &w, &g, &o);
	CU_ASSERT_DOUBLE_EQUAL(w + g + o, 12, 1e-12);
	/* fp32 Adam 4 + 4 + 8 = 16, fp32 momentum 12, fp32 SGD 8. */
	gp_memory_bytes_per_param(GP_OPT_ADAM, GP_PREC_FP32, &w, &g, &o);
	CU_ASSERT_DOUBLE_EQUAL(w + g + o, 16, 1e-12);
	gp_memory_bytes_per_param(GP_OPT_MOMENTUM, GP_PREC_FP32, &w, &g, &o);
	CU_ASSERT_DOUBLE_EQUAL(w + g + o, 12, 1e-12);
	gp_memory_bytes_per_param(GP_OPT_SGD, GP_PREC_FP32, &w, &g, &o);
	CU_ASSERT_DOUBLE_EQUAL(w + g + o, 8, 1e-12);
	/* Pure bf16 Adam: 2 + 2 + 4. */
	gp_memory_bytes_per_param(GP_OPT_ADAM, GP_PREC_BF16, &w, &g, &o);
	CU_ASSERT_DOUBLE_EQUAL(w + g + o, 8, 1e-12);
}

static void test_7b_mixed_adam(void)
{
	gp_job j;
	gp_error err = GP_ERROR_INIT;
	gp_mem_estimate e;
	/* s*b*h*(34 + 5*a*s/h) = 2048*1*4096*(34 + 80) per layer, 32 layers. */
	double act = 2048.0 * 4096 * 114 * 32;

	CU_ASSERT_EQUAL_FATAL(gp_jobspec_load(gp_test_path("tests/data/jobs/good-llama-7b.yaml"),
					      &j, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_memory_estimate(&j, &e, &err), GP_OK);
	CU_ASSERT_EQUAL(e.rule, GP_MEM_RULE_TRANSFORMER);
	CU_ASSERT_DOUBLE_EQUAL(e.states, 112e9, 1);
	CU_ASSERT_DOUBLE_EQUAL(e.weights, 14e9, 1);
	CU_ASSERT_DOUBLE_EQUAL(e.optim, 84e9, 1);
	CU_ASSERT_DOUBLE_EQUAL(e.act_bytes_per_layer, 956301312.0, 0.5);
	CU_ASSERT_DOUBLE_EQUAL(e.activations, act, 1);
	CU_ASSERT_DOUBLE_EQUAL(e.logits, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(e.total, 112e9 + act, 10); /* no margin by default */
	gp_job_release(&j);
}

static void test_bert_large_logits(void)
{
	gp_job j;
	gp_mem_estimate e;
	gp_error err = GP_ERROR_INIT;

	gp_job_init(&j);
	gp_model_fill_desc(gp_model_find("bert-large"), 0, 0, 0, &gp_job_more_edit(&j)->model);
	j.batch_size = 1;
	CU_ASSERT_EQUAL_FATAL(gp_memory_estimate(&j, &e, &err), GP_OK);
	/* 512*1024*(34 + 5*16*512/1024) = 38,797,312 B per layer, 24 layers;
	 * logits 4*512*30522 = 62,509,056 B; states 335e6 x 16. */
	CU_ASSERT_DOUBLE_EQUAL(e.act_bytes_per_layer, 38797312, 0.5);
	CU_ASSERT_DOUBLE_EQUAL(e.activations, 931135488, 0.5);
	CU_ASSERT_DOUBLE_EQUAL(e.logits, 62509056, 0.5);
	CU_ASSERT_DOUBLE_EQUAL(e.states, 5.36e9, 1);
	gp_job_release(&j);
}

static void test_vgg16_seed_rule(void)
{
	gp_job j;
	gp_error err = GP_ERROR_INIT;
	gp_mem_estimate e;

	CU_ASSERT_EQUAL_FATAL(gp_jobspec_load(gp_test_path("tests/data/jobs/good-vgg16.yaml"),
					      &j, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_memory_estimate(&j, &e, &err), GP_OK);
	CU_ASSERT_EQUAL(e.rule, GP_MEM_RULE_CNN);
	/* 15,087,080 elements (13 convs, 5 pools, 3 fc; see test_jobspec)
	 * x 32 samples x 4 B; 138,357,544 params x 12 B. */
	CU_ASSERT_DOUBLE_EQUAL(e.activations, 1931146240.0, 0.5);
	CU_ASSERT_DOUBLE_EQUAL(e.states, 1660290528.0, 0.5);
	CU_ASSERT_DOUBLE_EQUAL(e.total, 3591436768.0, 1);
	/* ceil(3,591,436,768 / 2^20) = ceil(3425.06) = 3426 MiB: the source document's
	 * formula, no margin. */
	CU_ASSERT_EQUAL(j.gpu_mem_mib, 3426);
	/* A 10 % margin is the caller's choice, shown apart. */
	CU_ASSERT_EQUAL_FATAL(gp_memory_estimate_margin(&j, 0.10, &e, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(e.overhead, 359143676.8, 1);
	CU_ASSERT_DOUBLE_EQUAL(e.total, 3591436768.0 * 1.1, 1);
	CU_ASSERT_EQUAL(gp_memory_estimate_margin(&j, -0.1, &e, &err), GP_EINPUT);
	gp_job_release(&j);
}

static void test_no_params(void)
{
	gp_job j;
	gp_mem_estimate e;
	gp_error err = GP_ERROR_INIT;

	gp_job_init(&j);
	CU_ASSERT_EQUAL(gp_memory_estimate(&j, &e, &err), GP_EINPUT);
	/* States only, with a note, when a model has no per-layer data. */
	gp_model_fill_desc(gp_model_find("googlenet"), 0, 0, 0, &gp_job_more_edit(&j)->model);
	j.optimizer = GP_OPT_SGD;
	j.precision = GP_PREC_FP32;
	CU_ASSERT_EQUAL(gp_memory_estimate(&j, &e, &err), GP_OK);
	CU_ASSERT_EQUAL(e.rule, GP_MEM_RULE_STATES);
	CU_ASSERT_PTR_NOT_NULL(e.note);
	CU_ASSERT_DOUBLE_EQUAL(e.total, 6624904.0 * 8, 1e-3);
	gp_job_release(&j);
}

/* A user's layer list under the source document's output-size rule,
 * hand-computed.  Input 3x32x32:
 *   conv 16, k3, p1:     (32 + 2 - 3) / 1 + 1 = 32 -> 16x32x32 = 16384
 *   pool 2 (stride 2):   (32 - 2) / 2 + 1 = 16     -> 16x16x16 =  4096
 *   conv 32, k3 s2 p1:   (16 + 2 - 3) / 2 + 1 = 8  -> 32x8x8   =  2048
 *   pool global:                                     32x1x1   =    32
 *   fc 10:                                                    =    10
 * 22570 elements; parameters 3*3*3*16 + 16 = 448, 3*3*16*32 + 32 = 4640,
 * 32*10 + 10 = 330: 5418.  Forward FLOPs 2 x (27*16*1024 + 144*32*64 +
 * 320) = 2 x 737600 = 1475200. */
static void test_layer_list(void)
{
	static const gp_layer_spec l[] = {
		{ GP_LAYER_CONV, 16, 3, 3, 1, 1 },
		{ GP_LAYER_POOL, 0, 2, 2, 2, 0 },
		{ GP_LAYER_CONV, 32, 3, 3, 2, 1 },
		{ GP_LAYER_POOL, 0, 0, 0, 0, 0 },
		{ GP_LAYER_FC, 10, 0, 0, 0, 0 },
	};
	static const char yaml[] =
		"name: tiny-cnn\ngpus: 1\ninput: [3, 32, 32]\nbatch_size: 64\n"
		"optimizer: sgd\nprecision: fp32\nmodel:\n  name: tiny\n  layer_list:\n"
		"    - {conv: 16, kernel: 3, padding: 1}\n    - {pool: 2}\n"
		"    - {conv: 32, kernel: 3, stride: 2, padding: 1}\n    - {pool: global}\n"
		"    - {fc: 10}\n";
	gp_layer_shape o[5];
	double elems = 0, params = 0, flops = 0;
	gp_job j;
	gp_mem_estimate e;
	gp_error err = GP_ERROR_INIT;
	int i;

	CU_ASSERT_EQUAL(gp_layer_stack(l, 5, 3, 32, 32, o), -1);
	for (i = 0; i < 5; i++) {
		elems += o[i].elems;
		params += o[i].params;
		flops += o[i].fwd_flops;
	}
	CU_ASSERT_EQUAL(o[2].h, 8);
	CU_ASSERT_DOUBLE_EQUAL(elems, 22570, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(params, 5418, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(flops, 1475200, 1e-9);
	/* A 3x3 kernel on the 1x1 after global pooling: no output at layer 5. */
	{
		gp_layer_spec bad[5];

		memcpy(bad, l, sizeof(bad));
		bad[4] = (gp_layer_spec){ GP_LAYER_CONV, 8, 3, 3, 1, 0 };
		CU_ASSERT_EQUAL(gp_layer_stack(bad, 5, 3, 32, 32, o), 4);
	}
	/* The same from job YAML: 5418 x 8 B + 22570 x 64 x 4 B = 5821264 B,
	 * 5.55 MiB, placed as 6 MiB; with a 10 % margin 6403390.4 B, 7 MiB. */
	gp_yaml_doc doc;

	gp_yaml_doc_init(&doc);
	CU_ASSERT_EQUAL_FATAL(gp_yaml_parse(yaml, strlen(yaml), "tiny.yaml", GP_YAML_MAX_DEPTH, &doc,
					    &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_jobspec_from_yaml(&doc, doc.root, &j, &err), GP_OK);
	gp_yaml_doc_release(&doc);
	CU_ASSERT_DOUBLE_EQUAL(j.more->model.params, 5418, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(j.more->model.act_elems, 22570, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(j.more->model.flops_per_sample, 3 * 1475200.0, 1e-6);
	CU_ASSERT_EQUAL(gp_memory_estimate(&j, &e, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(e.total, 5821264, 1e-6);
	CU_ASSERT_EQUAL(j.gpu_mem_mib, 6);
	CU_ASSERT_EQUAL(gp_memory_apply_margin(&j, 0.1, 0, &err), GP_OK);
	CU_ASSERT_EQUAL(j.gpu_mem_mib, 7);
	gp_job_release(&j);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("memory");

	gp_test_add(s, "bytes per parameter", test_bytes_per_param);
	gp_test_add(s, "7B mixed-precision Adam", test_7b_mixed_adam);
	gp_test_add(s, "BERT-large activations and logits", test_bert_large_logits);
	gp_test_add(s, "VGG-16 seed rule", test_vgg16_seed_rule);
	gp_test_add(s, "no parameters", test_no_params);
	gp_test_add(s, "layer list", test_layer_list);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
