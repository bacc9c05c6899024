/* Predictors: hand-counted operator profiles, the GPUMemNet reader, the
 * splits, deterministic training and the model file round trip. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuplan/io/jobspec.h"
#include "gpuplan/model/dlmodels.h"
#include "gpuplan/predict/predict.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

static void test_resnet18_cifar(void)
{
	gp_pred_ops o;

	CU_ASSERT_FATAL(gp_pred_ops_of_model(gp_model_find("resnet18-cifar"), 0, 0, 0, &o) == 0);
	/* 3x3 stem + 8 basic blocks x 2 + 3 projection shortcuts. */
	CU_ASSERT_EQUAL(o.count[GP_OP_CONV2D], 20);
	CU_ASSERT_EQUAL(o.count[GP_OP_NORM], 20);
	CU_ASSERT_EQUAL(o.count[GP_OP_RELU], 17); /* stem + 2 per block */
	CU_ASSERT_EQUAL(o.count[GP_OP_ADDV2], 8);
	CU_ASSERT_EQUAL(o.count[GP_OP_MAXPOOL], 0);
	CU_ASSERT_EQUAL(o.count[GP_OP_AVGPOOL], 1);
	CU_ASSERT_EQUAL(o.count[GP_OP_LINEAR], 1);
	CU_ASSERT_EQUAL(o.depth, 21);
	/* Largest conv input: 64 x 32 x 32 (stage 1); the pool sees 512 x 4 x 4. */
	CU_ASSERT_DOUBLE_EQUAL(o.max_in[GP_OP_CONV2D], 65536, 0);
	CU_ASSERT_DOUBLE_EQUAL(o.max_in[GP_OP_AVGPOOL], 8192, 0);
	CU_ASSERT_DOUBLE_EQUAL(o.max_in[GP_OP_LINEAR], 512, 0);
	CU_ASSERT_DOUBLE_EQUAL(o.input, 3072, 0);
}

static void test_resnet50(void)
{
	gp_pred_ops o;

	CU_ASSERT_FATAL(gp_pred_ops_of_model(gp_model_find("resnet50"), 0, 0, 0, &o) == 0);
	/* stem + 16 bottlenecks x 3 + 4 projections. */
	CU_ASSERT_EQUAL(o.count[GP_OP_CONV2D], 53);
	CU_ASSERT_EQUAL(o.count[GP_OP_RELU], 49);
	CU_ASSERT_EQUAL(o.count[GP_OP_ADDV2], 16);
	CU_ASSERT_EQUAL(o.count[GP_OP_MAXPOOL], 1);
	/* The max-pool reads the stem's 64 x 112 x 112; the head 2048 x 7 x 7. */
	CU_ASSERT_DOUBLE_EQUAL(o.max_in[GP_OP_MAXPOOL], 802816, 0);
	CU_ASSERT_DOUBLE_EQUAL(o.max_in[GP_OP_AVGPOOL], 100352, 0);
	/* At 112 x 112 every map has a quarter of the elements. */
	CU_ASSERT_FATAL(gp_pred_ops_of_model(gp_model_find("resnet50"), 112, 112, 0, &o) == 0);
	CU_ASSERT_DOUBLE_EQUAL(o.max_in[GP_OP_MAXPOOL], 200704, 0);
}

static void test_bert(void)
{
	gp_pred_ops o;

	CU_ASSERT_FATAL(gp_pred_ops_of_model(gp_model_find("bert-base"), 0, 0, 128, &o) == 0);
	/* 12 blocks x 6 projections + the vocabulary head. */
	CU_ASSERT_EQUAL(o.count[GP_OP_LINEAR], 73);
	CU_ASSERT_EQUAL(o.count[GP_OP_MATMUL], 24);
	CU_ASSERT_EQUAL(o.count[GP_OP_SOFTMAX], 13);
	CU_ASSERT_EQUAL(o.count[GP_OP_ACT], 12);  /* GELU */
	CU_ASSERT_EQUAL(o.count[GP_OP_NORM], 25);
	/* Attention probabilities: 12 heads x 128 x 128. */
	CU_ASSERT_DOUBLE_EQUAL(o.max_in[GP_OP_MATMUL], 196608, 0);
	CU_ASSERT_DOUBLE_EQUAL(o.max_in[GP_OP_LINEAR], 128.0 * 3072, 0);
	CU_ASSERT_DOUBLE_EQUAL(o.input, 128, 0);
}

static void test_trace_names(void)
{
	gp_model_desc d;
	gp_pred_ops o;

	memset(&d, 0, sizeof(d));
	strcpy(d.name, "LM");
	CU_ASSERT_EQUAL(gp_pred_ops_of_desc(&d, &o), 0);
	CU_ASSERT_EQUAL(o.count[GP_OP_RNN], 2);
	CU_ASSERT(o.approx);
	strcpy(d.name, "no-such-net");
	CU_ASSERT_EQUAL(gp_pred_ops_of_desc(&d, &o), -1);
	CU_ASSERT_EQUAL(gp_pred_op_parse("batch_normalization"), GP_OP_NORM);
	CU_ASSERT_EQUAL(gp_pred_op_parse("ConcatV2"), GP_OP_CONCAT);
	CU_ASSERT_EQUAL(gp_pred_op_parse("Mish"), -1);
}

static void test_gpumemnet(void)
{
	gp_pred_data d;
	gp_catalog cat;
	gp_error err = GP_ERROR_INIT;
	const double *x;

	gp_catalog_init_builtin(&cat);
	gp_pred_data_init(&d);
	CU_ASSERT_FATAL(gp_pred_data_load(gp_test_path("tests/data/predict/gpumemnet-3.csv"), &cat,
					  &d, &err) == GP_OK);
	CU_ASSERT_EQUAL_FATAL(d.n, 3);
	CU_ASSERT_STRING_EQUAL(d.format, "gpumemnet");
	/* Row 2: linear 200->200, BN, GELU, dropout, linear 200->20, softmax. */
	x = d.rows[1].x;
	CU_ASSERT_DOUBLE_EQUAL(x[2 * GP_OP_LINEAR], 2, 0);
	CU_ASSERT_DOUBLE_EQUAL(x[2 * GP_OP_LINEAR + 1], log2(201), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(x[2 * GP_OP_NORM], 1, 0);
	CU_ASSERT_DOUBLE_EQUAL(x[2 * GP_OP_ACT], 1, 0);
	CU_ASSERT_DOUBLE_EQUAL(x[2 * GP_OP_DROPOUT], 1, 0);
	CU_ASSERT_DOUBLE_EQUAL(x[2 * GP_OP_SOFTMAX + 1], log2(21), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(x[2 * GP_OP_N], 6, 1e-12);              /* log2 batch 64 */
	CU_ASSERT_DOUBLE_EQUAL(x[2 * GP_OP_N + 2], log2(44621), 1e-12); /* parameters */
	CU_ASSERT_DOUBLE_EQUAL(x[2 * GP_OP_N + 3], log2(841), 1e-12);   /* activations */
	CU_ASSERT_DOUBLE_EQUAL(d.rows[1].y[GP_PRED_UTIL], 30.25, 0);
	CU_ASSERT_DOUBLE_EQUAL(d.rows[1].y[GP_PRED_MEM], 1600, 0);
	CU_ASSERT(isnan(d.rows[1].y[GP_PRED_TIME]));
	CU_ASSERT_EQUAL(d.rows[2].depth, 4);
	CU_ASSERT_STRING_EQUAL(d.rows[0].gpu, "A100-SXM4-40GB");
	gp_pred_data_release(&d);
	gp_catalog_release(&cat);
}

static void test_depth_split(void)
{
	gp_pred_data d;
	gp_catalog cat;
	gp_error err = GP_ERROR_INIT;
	gp_pred_train_opts o;
	gp_pred_train_report rep;
	gp_predictor *p;

	gp_catalog_init_builtin(&cat);
	gp_pred_data_init(&d);
	CU_ASSERT_FATAL(gp_pred_data_load(gp_test_path("tests/data/predict/gpumemnet-3.csv"), &cat,
					  &d, &err) == GP_OK);
	gp_pred_train_opts_init(&o);
	o.split = GP_SPLIT_DEPTH;
	o.holdout = 0.34;
	o.epochs = 5;
	o.hidden[0] = 4;
	o.nhidden = 1;
	/* Depths 3, 3, 4: only the deepest row is held out. */
	CU_ASSERT_FATAL(gp_predictor_train(&d, &o, &p, &rep, &err) == GP_OK);
	CU_ASSERT_EQUAL(rep.train_rows, 2);
	CU_ASSERT_EQUAL(rep.test_rows, 1);
	gp_predictor_free(p);
	/* Leaving out a GPU nobody measured on is an error. */
	o.split = GP_SPLIT_GPU;
	strcpy(o.split_gpu, "K80");
	CU_ASSERT_EQUAL(gp_predictor_train(&d, &o, &p, &rep, &err), GP_EUSAGE);
	/* Holding out everything (every row of the only GPU) too. */
	strcpy(o.split_gpu, "A100-SXM4-40GB");
	CU_ASSERT_EQUAL(gp_predictor_train(&d, &o, &p, &rep, &err), GP_EUSAGE);
	gp_pred_data_release(&d);
	gp_catalog_release(&cat);
}

static void test_train_roundtrip(void)
{
	gp_pred_data d;
	gp_catalog cat;
	gp_error err = GP_ERROR_INIT;
	gp_pred_train_opts o;
	gp_pred_train_report r1, r2;
	gp_predictor *a, *b, *c;
	char path[] = "/tmp/gpuplan-test-predict-XXXXXX";
	int fd, i;

	gp_catalog_init_builtin(&cat);
	gp_pred_data_init(&d);
	CU_ASSERT_FATAL(gp_pred_data_load(gp_test_path("tests/data/predict/time.csv"), &cat, &d,
					  &err) == GP_OK);
	CU_ASSERT_STRING_EQUAL(d.format, "gpuplan");
	gp_pred_train_opts_init(&o);
	o.target = GP_PRED_TIME;
	o.epochs = 15;
	o.hidden[0] = 8;
	o.nhidden = 1;
	CU_ASSERT_FATAL(gp_predictor_train(&d, &o, &a, &r1, &err) == GP_OK);
	CU_ASSERT_FATAL(gp_predictor_train(&d, &o, &b, &r2, &err) == GP_OK);
	CU_ASSERT_EQUAL(r1.train_rows + r1.test_rows, d.n);
	CU_ASSERT_EQUAL(r1.test_rows, (size_t)floor(0.2 * (double)d.n + 0.5));
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_FATAL(gp_predictor_save(a, path, &err) == GP_OK);
	CU_ASSERT_FATAL(gp_predictor_load(path, &c, &err) == GP_OK);
	unlink(path);
	/* Same seed, same network; the file keeps every bit of it. */
	for (i = 0; i < 20; i++) {
		double pa = gp_predictor_run(a, d.rows[i * 7].x);

		CU_ASSERT(pa > 0);
		CU_ASSERT_EQUAL(pa, gp_predictor_run(b, d.rows[i * 7].x));
		CU_ASSERT_EQUAL(pa, gp_predictor_run(c, d.rows[i * 7].x));
	}
	CU_ASSERT_EQUAL(gp_predictor_target(c), GP_PRED_TIME);
	gp_predictor_free(a);
	gp_predictor_free(b);
	gp_predictor_free(c);
	gp_pred_data_release(&d);
	gp_catalog_release(&cat);
}

/* The time predictor outside its data: VGG-16 (no VGG in the time data)
 * at batch 32, FP32.  Training FLOPs per sample 3 x 30.94 G = 92.82 G,
 * 2.970 TFLOP per iteration: at least 2.970 / 4.37 = 0.68 s on a K80
 * (FP32 peak 4.37 TFLOPS), and a sane step keeps at least a few percent
 * of the peak (under 20 s; the network alone says minutes).  An H100
 * (67 FP32, 989 tensor TFLOPS) beats an RTX 2070 (6.5 FP32), which
 * beats the K80.  Where the predictor's answer stands, it is within
 * the perf model's band (a factor of GP_PRED_PERF_BAND either way). */
static void test_time_outside_data(void)
{
	static const char *const gpus[] = { "K80", "RTX-2070", "H100-SXM5-80GB" };
	gp_pred_models m;
	gp_pred_ops ops;
	gp_pred_job pj[3];
	gp_catalog cat;
	gp_job job;
	gp_error err = GP_ERROR_INIT;
	int i;

	gp_pred_models_init(&m);
	CU_ASSERT_FATAL(gp_pred_models_load(&m, gp_test_path("topologies/models"), &err) == GP_OK);
	gp_job_init(&job);
	CU_ASSERT_FATAL(gp_jobspec_load(gp_test_path("tests/data/jobs/good-vgg16.yaml"), &job, &err) == GP_OK);
	CU_ASSERT_FATAL(gp_pred_ops_of_desc(&job.more->model, &ops) == 0);
	gp_catalog_init_builtin(&cat);
	for (i = 0; i < 3; i++) {
		const gp_gpu_model *g = gp_catalog_find(&cat, gpus[i]);

		CU_ASSERT_FATAL(g != NULL);
		CU_ASSERT_EQUAL(gp_pred_job_on(&m, &job, &ops, g, &pj[i]), 0);
		CU_ASSERT(pj[i].iter_s > 0);
		CU_ASSERT(pj[i].net_iter_s > 0 && pj[i].perf_iter_s > 0);
		if (pj[i].time_source == GP_PRED_TIME_NET) {
			CU_ASSERT_DOUBLE_EQUAL(pj[i].iter_s, pj[i].net_iter_s, 0);
			CU_ASSERT(pj[i].net_iter_s <= GP_PRED_PERF_BAND * pj[i].perf_iter_s);
			CU_ASSERT(pj[i].net_iter_s * GP_PRED_PERF_BAND >= pj[i].perf_iter_s);
		} else {
			CU_ASSERT_EQUAL(pj[i].time_source, GP_PRED_TIME_PERF);
			CU_ASSERT_DOUBLE_EQUAL(pj[i].iter_s, pj[i].perf_iter_s, 0);
			CU_ASSERT(pj[i].net_iter_s > GP_PRED_PERF_BAND * pj[i].perf_iter_s ||
				  pj[i].net_iter_s * GP_PRED_PERF_BAND < pj[i].perf_iter_s);
		}
	}
	CU_ASSERT(pj[0].iter_s > 0.68 && pj[0].iter_s < 20);
	CU_ASSERT(pj[2].iter_s < pj[1].iter_s);
	CU_ASSERT(pj[1].iter_s < pj[0].iter_s);
	CU_ASSERT_STRING_EQUAL(gp_pred_time_source_name(GP_PRED_TIME_PERF), "perf-model");
	CU_ASSERT_STRING_EQUAL(gp_pred_time_source_name(GP_PRED_TIME_NET), "predictor");
	gp_catalog_release(&cat);
	gp_job_release(&job);
	gp_pred_models_release(&m);
}

static void test_bad_model_file(void)
{
	gp_predictor *p = NULL;
	gp_error err = GP_ERROR_INIT;
	char path[] = "/tmp/gpuplan-test-predict-XXXXXX";
	int fd = mkstemp(path);
	FILE *fp;

	CU_ASSERT_FATAL(fd >= 0);
	fp = fdopen(fd, "w");
	fputs("{\"format\": \"gpuplan-predictor\", \"version\": 1, \"target\": \"util\"}\n", fp);
	fclose(fp);
	CU_ASSERT_EQUAL(gp_predictor_load(path, &p, &err), GP_EINPUT);
	CU_ASSERT_PTR_NULL(p);
	unlink(path);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("predict");

	gp_test_add(s, "resnet18-cifar operators", test_resnet18_cifar);
	gp_test_add(s, "resnet50 operators", test_resnet50);
	gp_test_add(s, "bert operators", test_bert);
	gp_test_add(s, "trace model names", test_trace_names);
	gp_test_add(s, "gpumemnet reader", test_gpumemnet);
	gp_test_add(s, "depth split", test_depth_split);
	gp_test_add(s, "train and round trip", test_train_roundtrip);
	gp_test_add(s, "bad model file", test_bad_model_file);
	gp_test_add(s, "iteration time outside the predictor's data", test_time_outside_data);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
