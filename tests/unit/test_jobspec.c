/* Job-spec loader and model catalog, on the files in tests/data/jobs/. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuplan/io/jobspec.h"
#include "gpuplan/model/memory.h"
#include "gpuplan/model/dlmodels.h"
#include "testlib.h"

static const char *data(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "tests/data/jobs/%s", name);
	return gp_test_path(path);
}

static void test_minimal(void)
{
	gp_job j;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL_FATAL(gp_jobspec_load(data("good-minimal.yaml"), &j, &err), GP_OK);
	CU_ASSERT_STRING_EQUAL(j.id, "bert-large-ring");
	CU_ASSERT_EQUAL(j.type, GP_JOB_RING_ALLREDUCE);
	CU_ASSERT_EQUAL(j.gpus, 16);
	CU_ASSERT_EQUAL(j.gpu_mem_mib, 20 * 1024);
	CU_ASSERT_EQUAL(j.gpu_mem_estimated, 0);
	CU_ASSERT_EQUAL(j.gpu_milli, 1000);
	CU_ASSERT_EQUAL(j.line, 2);
	gp_job_release(&j);
}

static void test_ps_worker_full(void)
{
	gp_job j;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL_FATAL(gp_jobspec_load(data("good-ps-worker.yaml"), &j, &err), GP_OK);
	CU_ASSERT_EQUAL(j.type, GP_JOB_PS_WORKER);
	CU_ASSERT_EQUAL(j.gpus, 8);
	CU_ASSERT_EQUAL(j.ps, 2);
	CU_ASSERT_EQUAL(j.workers, 6);
	CU_ASSERT_STRING_EQUAL(j.more->model.name, "resnet50");
	CU_ASSERT_STRING_EQUAL(j.more->model.dataset, "imagenet");
	CU_ASSERT_DOUBLE_EQUAL(j.more->model.params, 25557032, 0.5);
	CU_ASSERT_EQUAL(j.more->model.input_h, 224);
	/* Hand sum of ResNet-50's 54 conv/fc outputs at 224x224 (see README),
	 * + the max-pool 64x56x56 = 200,704 + the average pool 2048. */
	CU_ASSERT_DOUBLE_EQUAL(j.more->model.act_elems, 11317736, 0.5);
	CU_ASSERT_EQUAL(j.optimizer, GP_OPT_MOMENTUM);
	CU_ASSERT_EQUAL(j.precision, GP_PREC_FP32);
	CU_ASSERT_STRING_EQUAL(j.gpu_models, "V100-SXM2-32GB|A100-SXM4-80GB");
	CU_ASSERT_TRUE(gp_job_accepts_model(&j, "a100-sxm4-80gb"));
	CU_ASSERT_FALSE(gp_job_accepts_model(&j, "T4"));
	CU_ASSERT_EQUAL(j.klass, GP_CLASS_LS);
	CU_ASSERT_STRING_EQUAL(j.environment, "vision");
	CU_ASSERT_EQUAL(j.cpu_milli, 4000);
	CU_ASSERT_EQUAL(j.mem_mib, 32768);
	CU_ASSERT_EQUAL(j.iterations, 1000);
	/* 12 B/param x 25,557,032 + 11,317,736 x 64 x 4 B, no margin:
	 * 306,684,384 + 2,897,340,416 = 3,204,024,800 B = 3055.6 MiB. */
	CU_ASSERT_EQUAL(j.gpu_mem_estimated, 1);
	CU_ASSERT_EQUAL(j.gpu_mem_mib, 3056);
	gp_job_release(&j);
}

static void test_explicit_model_and_duration(void)
{
	gp_job j;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL_FATAL(gp_jobspec_load(data("good-llama-7b.yaml"), &j, &err), GP_OK);
	CU_ASSERT_STRING_EQUAL(j.more->model.name, "my-7b");
	CU_ASSERT_DOUBLE_EQUAL(j.more->model.params, 7e9, 1);
	CU_ASSERT_TRUE(j.more->model.is_transformer);
	CU_ASSERT_EQUAL(j.more->model.seq_len, 2048);
	CU_ASSERT_DOUBLE_EQUAL(j.duration, 7200, 1e-9);
	/* 6 N s = 6 x 7e9 x 2048 FLOPs per sequence. */
	CU_ASSERT_DOUBLE_EQUAL(j.more->model.flops_per_sample, 6 * 7e9 * 2048, 1e3);
	gp_job_release(&j);
}

static void test_share(void)
{
	gp_job j;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL_FATAL(gp_jobspec_load(data("good-share.yaml"), &j, &err), GP_OK);
	CU_ASSERT_EQUAL(j.gpu_milli, 250);
	CU_ASSERT_EQUAL(j.klass, GP_CLASS_BE);
	CU_ASSERT_EQUAL(j.gpu_mem_mib, 4096);
	gp_job_release(&j);
}

static void expect_error(const char *file, int line, int col, const char *needle)
{
	gp_job j;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL(gp_jobspec_load(data(file), &j, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, line);
	CU_ASSERT_EQUAL(err.col, col);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.file, file));
	if (!strstr(err.msg, needle))
		fprintf(stderr, "%s: message '%s' lacks '%s'\n", file, err.msg, needle);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, needle));
	CU_ASSERT_PTR_NULL(j.id); /* released on failure */
}

static void test_bad_files(void)
{
	expect_error("bad-unknown-key.yaml", 5, 1, "unknown key 'gpu_mem'");
	expect_error("bad-gpus-zero.yaml", 4, 7, "gpus must be an integer in [1, 65536]");
	expect_error("bad-single-card-many.yaml", 4, 7, "single-card job uses 1 GPU, not 4");
	expect_error("bad-ps-sum.yaml", 4, 7, "gpus is 8 but ps + workers = 2 + 4 = 6");
	expect_error("bad-type.yaml", 3, 7, "not 'allreduce'");
	expect_error("bad-wrong-type.yaml", 5, 17, "gpu_memory_gib");
	expect_error("bad-model.yaml", 5, 8, "did you mean 'resnet50'?");
	expect_error("bad-no-memory.yaml", 2, 1, "neither 'gpu_memory_gib' nor a 'model'");
	expect_error("bad-share-multi.yaml", 5, 12, "only for 1-GPU jobs");
	expect_error("bad-model-key.yaml", 7, 3, "did you mean 'hidden'?");
}

/* `type` follows from the roles when they say it. */
static void test_type_from_roles(void)
{
	gp_job j;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL_FATAL(gp_jobspec_load(data("notype-ps.yaml"), &j, &err), GP_OK);
	CU_ASSERT_EQUAL(j.type, GP_JOB_PS_WORKER);
	CU_ASSERT_EQUAL(j.gpus, 4);
	CU_ASSERT_EQUAL(j.ps, 1);
	CU_ASSERT_EQUAL(j.workers, 3);
	gp_job_release(&j);
	CU_ASSERT_EQUAL_FATAL(gp_jobspec_load(data("notype-workers.yaml"), &j, &err), GP_OK);
	CU_ASSERT_EQUAL(j.type, GP_JOB_RING_ALLREDUCE);
	CU_ASSERT_EQUAL(j.gpus, 4);
	CU_ASSERT_EQUAL(j.ps, 0);
	gp_job_release(&j);
	CU_ASSERT_EQUAL_FATAL(gp_jobspec_load(data("notype-one.yaml"), &j, &err), GP_OK);
	CU_ASSERT_EQUAL(j.type, GP_JOB_SINGLE_CARD);
	CU_ASSERT_EQUAL(j.gpus, 1);
	gp_job_release(&j);
	CU_ASSERT_EQUAL_FATAL(gp_jobspec_load(data("notype-rest.yaml"), &j, &err), GP_OK);
	CU_ASSERT_EQUAL(j.type, GP_JOB_PS_WORKER);
	CU_ASSERT_EQUAL(j.gpus, 6);
	CU_ASSERT_EQUAL(j.ps, 2);
	CU_ASSERT_EQUAL(j.workers, 4);
	gp_job_release(&j);
	expect_error("bad-notype-ambiguous.yaml", 2, 1, "could be single-node or ring-allreduce");
}

static void test_list(void)
{
	gp_joblist l;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL_FATAL(gp_jobspec_load_list(data("list-good.yaml"), &l, &err), GP_OK);
	CU_ASSERT_EQUAL(l.n, 4);
	CU_ASSERT_STRING_EQUAL(l.jobs[2].id, "c");
	CU_ASSERT_EQUAL(l.jobs[2].gpus, 8);
	CU_ASSERT_EQUAL(l.jobs[3].gpu_milli, 500);
	gp_joblist_release(&l);
	CU_ASSERT_EQUAL(gp_jobspec_load_list(data("list-bad-dup.yaml"), &l, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 4);
	CU_ASSERT_EQUAL(err.col, 12);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "duplicate job name 'a'"));
	CU_ASSERT_EQUAL(l.n, 0);
	/* A single-job file is not a list. */
	CU_ASSERT_EQUAL(gp_jobspec_load_list(data("good-minimal.yaml"), &l, &err), GP_EINPUT);
}

static void test_catalog(void)
{
	const gp_dl_model *m;
	double out[256], sum = 0;
	int n, i, count;

	/* Names from traces resolve to catalog entries. */
	CU_ASSERT_PTR_EQUAL(gp_model_find("imagenet"), gp_model_find("resnet50"));
	CU_ASSERT_PTR_EQUAL(gp_model_find("ResNet_50"), gp_model_find("resnet50"));
	CU_ASSERT_PTR_EQUAL(gp_model_find("cifar10"), gp_model_find("resnet18-cifar"));
	CU_ASSERT_PTR_EQUAL(gp_model_find("shufflenet_v2_x1_0"), gp_model_find("shufflenet-v2"));
	CU_ASSERT_PTR_NOT_NULL(gp_model_find("deepspeech2"));
	CU_ASSERT_PTR_NOT_NULL(gp_model_find("yolov3"));
	CU_ASSERT_PTR_NOT_NULL(gp_model_find("ncf"));
	CU_ASSERT_PTR_NOT_NULL(gp_model_find("transformer"));
	CU_ASSERT_PTR_NOT_NULL(gp_model_find("Llama3-70B"));
	CU_ASSERT_PTR_NULL(gp_model_find("nosuchnet"));
	CU_ASSERT_STRING_EQUAL(gp_model_suggest("resnt50"), "resnet50");
	gp_model_list(&count);
	CU_ASSERT_TRUE(count >= 20);

	/* VGG-16 at 224: 2x64x224^2 + 2x128x112^2 + 3x256x56^2 + 3x512x28^2
	 * + 3x512x14^2 + 4096 + 4096 + 1000 = 13,556,712 elements, + the five
	 * 2x2/2 max-pools: 64x112^2 + 128x56^2 + 256x28^2 +
	 * 512x14^2 + 512x7^2 = 1,530,368: 15,087,080 over 21 layers. */
	m = gp_model_find("vgg16");
	n = gp_model_layer_outputs(m, 0, 0, out, 256);
	CU_ASSERT_EQUAL(n, 21);
	for (i = 0; i < n; i++)
		sum += out[i];
	CU_ASSERT_DOUBLE_EQUAL(sum, 15087080, 0.5);
	CU_ASSERT_DOUBLE_EQUAL(out[0], 3211264, 0.5);
	/* ResNet-50: 49 convs + 4 projections + max-pool + average pool + fc. */
	CU_ASSERT_EQUAL(gp_model_layer_outputs(gp_model_find("resnet50"), 0, 0, out, 256), 56);
	CU_ASSERT_EQUAL(gp_model_layer_outputs(gp_model_find("resnet50"), 0, 0, out, 10), -1);
	/* AlexNet: 64x55^2 + 192x27^2 + 384x13^2 + 2x256x13^2 + 9192 = 494,184,
	 * + its three 3x3/2 max-pools: (55-3)/2+1 = 27, (27-3)/2+1 = 13,
	 * (13-3)/2+1 = 6: 64x27^2 + 192x13^2 + 256x6^2 = 88,320: 582,504. */
	n = gp_model_layer_outputs(gp_model_find("alexnet"), 0, 0, out, 256);
	for (sum = 0, i = 0; i < n; i++)
		sum += out[i];
	CU_ASSERT_EQUAL(n, 11);
	CU_ASSERT_DOUBLE_EQUAL(sum, 582504, 0.5);
	/* CIFAR ResNet-18 at 32x32: 614,410 elements over 21 layers, + the
	 * 512-channel average pool. */
	n = gp_model_layer_outputs(gp_model_find("cifar10"), 0, 0, out, 256);
	for (sum = 0, i = 0; i < n; i++)
		sum += out[i];
	CU_ASSERT_EQUAL(n, 22);
	CU_ASSERT_DOUBLE_EQUAL(sum, 614922, 0.5);
	/* No generated architecture: 0 layers. */
	CU_ASSERT_EQUAL(gp_model_layer_outputs(gp_model_find("googlenet"), 0, 0, out, 256), 0);
	/* Training FLOPs: 3 x forward (2 x 4.09 G multiply-adds for ResNet-50). */
	CU_ASSERT_DOUBLE_EQUAL(gp_model_train_flops(gp_model_find("resnet50"), 0, 0, 0),
			       3 * 8.18e9, 1e6);
	/* GPT-2 XL: 6 N s + 12 L h s^2 with s = 1024. */
	CU_ASSERT_DOUBLE_EQUAL(gp_model_train_flops(gp_model_find("gpt2-xl"), 0, 0, 0),
			       6 * 1557611200.0 * 1024 + 12.0 * 48 * 1600 * 1024.0 * 1024, 1e6);
}

static void test_parse_count(void)
{
	double v;

	CU_ASSERT_EQUAL(gp_parse_count("7B", &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 7e9, 1e-3);
	CU_ASSERT_EQUAL(gp_parse_count("340M", &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 340e6, 1e-3);
	CU_ASSERT_EQUAL(gp_parse_count("25557032", &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 25557032, 1e-3);
	CU_ASSERT_EQUAL(gp_parse_count("7X", &v), -1);
	CU_ASSERT_EQUAL(gp_parse_count("", &v), -1);
	CU_ASSERT_EQUAL(gp_parse_count("-1M", &v), -1);
}

/* A job file's root keys after the first unknown one are parsed but not
 * kept (memory): the errors are those of the whole file. */
static int load_text(const char *text, gp_error *err)
{
	char path[] = "/tmp/gpuplan-job-XXXXXX";
	int fd = mkstemp(path), rc;
	gp_job j;

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	gp_error_clear(err);
	rc = gp_jobspec_load(path, &j, err);
	if (rc == GP_OK)
		gp_job_release(&j);
	unlink(path);
	return rc;
}

static void test_unknown_keys_dropped(void)
{
	gp_error err;

	CU_ASSERT_EQUAL(load_text("name: j\nfoo: 1\nbar: {x: [1, 2]}\ngpus: 2\n", &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 2);
	CU_ASSERT_STRING_EQUAL(err.msg, "unknown key 'foo' in job");
	/* a dropped key repeated: the YAML error, at the repeat */
	CU_ASSERT_EQUAL(load_text("name: j\nfoo: 1\nbar: 2\nbar: 3\n", &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 4);
	CU_ASSERT_STRING_EQUAL(err.msg, "duplicate key 'bar' (first at line 3)");
	/* a kept key repeated after the first unknown one */
	CU_ASSERT_EQUAL(load_text("name: j\nfoo: 1\ngpus: 2\nname: k\n", &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 4);
	CU_ASSERT_STRING_EQUAL(err.msg, "duplicate key 'name' (first at line 1)");
	/* inside a dropped value */
	CU_ASSERT_EQUAL(load_text("name: j\nfoo: 1\nbar: {x: 1, x: 2}\n", &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT_EQUAL(err.col, 13);
	CU_ASSERT_EQUAL(load_text("name: j\nfoo: 1\nbar: [1\n", &err), GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "invalid YAML"));
	/* 'jobs' and 'name' are looked for before the keys are checked */
	CU_ASSERT_EQUAL(load_text("foo: 1\nbar: 2\njobs: []\n", &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "a list of jobs"));
	CU_ASSERT_EQUAL(load_text("foo: 1\nbar: 2\njobs: []\nname: x\n", &err), GP_EINPUT);
	CU_ASSERT_STRING_EQUAL(err.msg, "unknown key 'foo' in job");
}

/* The job of `text` (type and counts), or -1 as its type when it does not
 * load (err says why). */
static gp_job load_job_text(const char *text, gp_error *err)
{
	char path[] = "/tmp/gpuplan-job-XXXXXX";
	int fd = mkstemp(path);
	gp_job j, out;

	memset(&out, 0, sizeof(out));
	out.type = -1;
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	gp_error_clear(err);
	if (gp_jobspec_load(path, &j, err) == GP_OK) {
		out.type = j.type, out.gpus = j.gpus, out.ps = j.ps, out.workers = j.workers;
		gp_job_release(&j);
	}
	unlink(path);
	return out;
}

/* The source patent: a job with no parameter server (ps: 0) and workers is
 * a Ring-AllReduce job, every GPU a worker. */
static void test_ps_zero_is_ring(void)
{
	gp_error err;
	gp_job j;

	j = load_job_text("name: r\ngpu_memory_gib: 8\nps: 0\nworkers: 4\n", &err);
	CU_ASSERT_EQUAL(j.type, GP_JOB_RING_ALLREDUCE);
	CU_ASSERT_EQUAL(j.gpus, 4);
	CU_ASSERT_EQUAL(j.ps, 0);
	CU_ASSERT_EQUAL(j.workers, 0);
	j = load_job_text("name: r\ngpu_memory_gib: 8\ngpus: 3\nps: 0\n", &err);
	CU_ASSERT_EQUAL(j.type, GP_JOB_RING_ALLREDUCE);
	CU_ASSERT_EQUAL(j.gpus, 3);
	j = load_job_text("name: r\ngpu_memory_gib: 8\ntype: ring-allreduce\ngpus: 2\nps: 0\nworkers: 2\n", &err);
	CU_ASSERT_EQUAL(j.type, GP_JOB_RING_ALLREDUCE);
	CU_ASSERT_EQUAL(j.gpus, 2);
	j = load_job_text("name: r\ngpu_memory_gib: 8\nps: 0\nworkers: 1\n", &err);
	CU_ASSERT_EQUAL(j.type, GP_JOB_SINGLE_CARD);
	/* contradictions stay errors */
	j = load_job_text("name: r\ngpu_memory_gib: 8\ngpus: 4\nps: 0\nworkers: 3\n", &err);
	CU_ASSERT_EQUAL(j.type, -1);
	CU_ASSERT_EQUAL(err.line, 5);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "every GPU is a worker"));
	j = load_job_text("name: r\ngpu_memory_gib: 8\ntype: ps-worker\nps: 0\nworkers: 3\n", &err);
	CU_ASSERT_EQUAL(j.type, -1);
	CU_ASSERT_EQUAL(err.line, 4);
	j = load_job_text("name: r\ngpu_memory_gib: 8\nps: -1\nworkers: 3\n", &err);
	CU_ASSERT_EQUAL(j.type, -1);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("jobspec");

	gp_test_add(s, "minimal", test_minimal);
	gp_test_add(s, "unknown keys dropped", test_unknown_keys_dropped);
	gp_test_add(s, "ps-worker with model", test_ps_worker_full);
	gp_test_add(s, "explicit model, duration", test_explicit_model_and_duration);
	gp_test_add(s, "gpu share", test_share);
	gp_test_add(s, "bad files located", test_bad_files);
	gp_test_add(s, "job list", test_list);
	gp_test_add(s, "type from the roles", test_type_from_roles);
	gp_test_add(s, "ps: 0 is ring-allreduce", test_ps_zero_is_ring);
	gp_test_add(s, "model catalog", test_catalog);
	gp_test_add(s, "parse count", test_parse_count);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
