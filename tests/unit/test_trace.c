/* Trace readers against real trace files in tests/data/traces/ (origins in
 * its README.md).  Expected values were read off the files by hand or
 * counted with awk/grep, never copied from gpuplan's output. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/model/dlmodels.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

#define T(f) gp_test_path("tests/data/traces/" f)
#define OB(f) gp_test_path("tests/data/openb/" f)

static gp_joblist L;
static gp_trace_stats ST;
static gp_error E;

/* Load path with an optional forced format and options; returns status. */
static int load_opts(const char *path, gp_trace_opts *o)
{
	o->stats = &ST;
	gp_error_clear(&E);
	gp_joblist_release(&L);
	gp_joblist_init(&L);
	return gp_trace_load(path, o, &L, &E);
}

static int load(const char *path, const char *format)
{
	gp_trace_opts o;

	gp_trace_opts_init(&o);
	o.format = format;
	return load_opts(path, &o);
}

static const gp_job *by_id(const char *id)
{
	size_t i;

	for (i = 0; i < L.n; i++)
		if (!strcmp(L.jobs[i].id, id))
			return &L.jobs[i];
	return NULL;
}

static int sorted_by_submit(void)
{
	size_t i;

	for (i = 1; i < L.n; i++)
		if (L.jobs[i].submit < L.jobs[i - 1].submit)
			return 0;
	return 1;
}

static void test_formats(void)
{
	const char *const *f = gp_trace_formats();
	const char *want[] = { "gpuplan", "tiresias", "muri", "philly", "pollux", "gavel",
			       "openb" };
	size_t i, j, n = 0;

	while (f[n])
		n++;
	CU_ASSERT(n >= GP_ARRAY_SIZE(want));
	for (i = 0; i < GP_ARRAY_SIZE(want); i++) {
		int found = 0;

		for (j = 0; j < n; j++)
			found |= !strcmp(f[j], want[i]);
		CU_ASSERT(found);
		CU_ASSERT_PTR_NOT_NULL(gp_trace_format_summary(want[i]));
	}
	CU_ASSERT_PTR_NULL(gp_trace_format_summary("slurm"));
}

/* 60_job.csv: CRLF line ends, seconds. */
static void test_tiresias(void)
{
	const gp_job *j;

	CU_ASSERT_EQUAL_FATAL(load(T("tiresias-60_job.csv"), NULL), GP_OK);
	CU_ASSERT_STRING_EQUAL(L.format, "tiresias");
	CU_ASSERT_EQUAL(L.n, 60);
	CU_ASSERT_EQUAL(ST.rows, 60);
	j = &L.jobs[0];         /* 0,1,0,606,vgg19,164,30 */
	CU_ASSERT_STRING_EQUAL(j->id, "0");
	CU_ASSERT_EQUAL(j->gpus, 1);
	CU_ASSERT_DOUBLE_EQUAL(j->submit, 0, 1e-9);
	CU_ASSERT_EQUAL(j->iterations, 606);
	CU_ASSERT_STRING_EQUAL(j->more->model.name, "vgg19");
	/* Named models get the catalog's descriptor, as job specs do. */
	CU_ASSERT_DOUBLE_EQUAL(j->more->model.params, gp_model_find("vgg19")->params, 1);
	CU_ASSERT_EQUAL(j->more->model.layers, gp_model_find("vgg19")->layers);
	CU_ASSERT(j->more->model.flops_per_sample > 0);
	CU_ASSERT_DOUBLE_EQUAL(j->duration, 164, 1e-9);
	CU_ASSERT_EQUAL(j->type, GP_JOB_SINGLE_CARD);
	CU_ASSERT_EQUAL(j->line, 2);
	j = &L.jobs[1];         /* 1,8,30,133,vgg11,147,23 */
	CU_ASSERT_EQUAL(j->gpus, 8);
	CU_ASSERT_EQUAL(j->type, GP_JOB_RING_ALLREDUCE);
	j = &L.jobs[59];        /* 59,1,1779,525,inception3,122,33 */
	CU_ASSERT_STRING_EQUAL(j->id, "59");
	CU_ASSERT_DOUBLE_EQUAL(j->submit, 1779, 1e-9);
	CU_ASSERT_EQUAL(j->iterations, 525);
	CU_ASSERT_STRING_EQUAL(j->more->model.name, "inception-v3");  /* catalog alias */
	CU_ASSERT_DOUBLE_EQUAL(j->duration, 122, 1e-9);
	CU_ASSERT_EQUAL(j->line, 61);
	CU_ASSERT_EQUAL(L.skipped, 0);
	CU_ASSERT_STRING_EQUAL(L.source, T("tiresias-60_job.csv"));
}

/* Muri's cluster_trace.csv is in milliseconds: 5095000 ms = 5095 s. */
static void test_muri_ms(void)
{
	const gp_job *j;

	CU_ASSERT_EQUAL_FATAL(load(T("muri-cluster_trace.csv"), NULL), GP_OK);
	CU_ASSERT_STRING_EQUAL(L.format, "muri");
	CU_ASSERT_EQUAL(L.n, 400);
	j = &L.jobs[0];         /* 0,8,0,10956,gpt2,4,5095000,91000,437,...,0 */
	CU_ASSERT_STRING_EQUAL(j->id, "0");
	CU_ASSERT_EQUAL(j->gpus, 8);
	CU_ASSERT_DOUBLE_EQUAL(j->submit, 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(j->duration, 5095, 1e-9);
	CU_ASSERT_EQUAL(j->iterations, 10956);
	CU_ASSERT_EQUAL(j->batch_size, 4);
	CU_ASSERT_STRING_EQUAL(j->more->model.name, "gpt2");
	CU_ASSERT_EQUAL(j->priority, 0);
	j = &L.jobs[1];         /* 1,8,1534000,1463,vgg16,16,281000,...,1 */
	CU_ASSERT_DOUBLE_EQUAL(j->submit, 1534, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(j->duration, 281, 1e-9);
	CU_ASSERT_EQUAL(j->priority, 1);
	j = &L.jobs[399];       /* 399,8,2344695000,22787,gpt2,4,10596000,... */
	CU_ASSERT_STRING_EQUAL(j->id, "399");
	CU_ASSERT_DOUBLE_EQUAL(j->submit, 2344695, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(j->duration, 10596, 1e-9);

	/* Forcing Tiresias on the same file keeps the raw (ms) numbers. */
	CU_ASSERT_EQUAL_FATAL(load(T("muri-cluster_trace.csv"), "tiresias"), GP_OK);
	CU_ASSERT_STRING_EQUAL(L.format, "tiresias");
	CU_ASSERT_DOUBLE_EQUAL(L.jobs[0].duration, 5095000, 1e-9);
}

/* The whole Philly table: 82,247 rows, 2017-09-04 10:30:41 ..
 * 2017-12-22 08:02:11; the latter is 109 days minus 2:28:30 later. */
static void test_philly(void)
{
	const gp_job *j;
	size_t i, one = 0, vc = 0;
	long gpus = 0;

	CU_ASSERT_EQUAL_FATAL(load(T("philly.csv"), NULL), GP_OK);
	CU_ASSERT_STRING_EQUAL(L.format, "philly");
	CU_ASSERT_EQUAL(L.n, 82247);
	CU_ASSERT_EQUAL(ST.rows, 82247);
	/* 2017-09-04 = day 17413 since 1970: 17413 * 86400 + 37841. */
	CU_ASSERT_DOUBLE_EQUAL(ST.epoch, 1504521041.0, 1e-6);
	CU_ASSERT(sorted_by_submit());
	j = &L.jobs[0];         /* line 31568: 2017-09-04 10:30:41,2240194.0,8,...,7f04ca */
	CU_ASSERT_DOUBLE_EQUAL(j->submit, 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(j->duration, 2240194, 1e-9);
	CU_ASSERT_EQUAL(j->gpus, 8);
	CU_ASSERT_STRING_EQUAL(j->environment, "7f04ca");
	CU_ASSERT_EQUAL(j->line, 31568);
	CU_ASSERT_STRING_EQUAL(j->id, "31566");
	CU_ASSERT_EQUAL(L.jobs[1].submit, 235696); /* 2017-09-07 03:58:57 */
	j = &L.jobs[L.n - 1];   /* line 62255: 2017-12-22 08:02:11,64.0,1,64.0,11cb48 */
	CU_ASSERT_DOUBLE_EQUAL(j->submit, 109 * 86400.0 - 8910, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(j->duration, 64, 1e-9);
	CU_ASSERT_STRING_EQUAL(j->environment, "11cb48");
	CU_ASSERT_EQUAL(j->line, 62255);
	CU_ASSERT_STRING_EQUAL(j->id, "62253");
	for (i = 0; i < L.n; i++) {
		gpus += L.jobs[i].gpus;
		one += L.jobs[i].gpus == 1;
		vc += !strcmp(L.jobs[i].environment, "6214e9");
	}
	CU_ASSERT_EQUAL(one, 76627);    /* README: 1-GPU jobs */
	CU_ASSERT_EQUAL(gpus, 107235);  /* awk sum of num_gpus */
	CU_ASSERT_EQUAL(vc, 41226);     /* awk count of cluster 6214e9 */
}

static void test_window_limit(void)
{
	gp_trace_opts o;
	size_t i;
	long gpus = 0;

	/* Philly second week: submissions in [2017-09-11 10:30:41,
	 * 2017-09-18 10:30:41) -- 13 jobs, 34 GPUs (awk). */
	gp_trace_opts_init(&o);
	o.start = 7 * 86400;
	o.end = 14 * 86400;
	CU_ASSERT_EQUAL_FATAL(load_opts(T("philly.csv"), &o), GP_OK);
	CU_ASSERT_EQUAL(L.n, 13);
	for (i = 0; i < L.n; i++) {
		gpus += L.jobs[i].gpus;
		CU_ASSERT(L.jobs[i].submit >= 7 * 86400 && L.jobs[i].submit < 14 * 86400);
	}
	CU_ASSERT_EQUAL(gpus, 34);
	CU_ASSERT_EQUAL(ST.outside, 82247 - 13);
	CU_ASSERT_DOUBLE_EQUAL(ST.epoch, 1504521041.0, 1e-6);

	/* Limit: the first ten by submit time. */
	gp_trace_opts_init(&o);
	o.limit = 10;
	CU_ASSERT_EQUAL_FATAL(load_opts(T("philly.csv"), &o), GP_OK);
	CU_ASSERT_EQUAL(L.n, 10);
	CU_ASSERT_EQUAL(ST.over_limit, 82237);
	CU_ASSERT_EQUAL(L.jobs[0].line, 31568);

	/* Tiresias [100, 200): jobs 5 (132 s) and 6 (176 s). */
	gp_trace_opts_init(&o);
	o.start = 100;
	o.end = 200;
	CU_ASSERT_EQUAL_FATAL(load_opts(T("tiresias-60_job.csv"), &o), GP_OK);
	CU_ASSERT_EQUAL_FATAL(L.n, 2);
	CU_ASSERT_STRING_EQUAL(L.jobs[0].id, "5");
	CU_ASSERT_STRING_EQUAL(L.jobs[1].id, "6");

	/* From 53 s, at most three: jobs 2, 3, 4 (53, 79, 99 s). */
	gp_trace_opts_init(&o);
	o.start = 53;
	o.limit = 3;
	CU_ASSERT_EQUAL_FATAL(load_opts(T("tiresias-60_job.csv"), &o), GP_OK);
	CU_ASSERT_EQUAL_FATAL(L.n, 3);
	CU_ASSERT_STRING_EQUAL(L.jobs[0].id, "2");
	CU_ASSERT_STRING_EQUAL(L.jobs[2].id, "4");
	CU_ASSERT_EQUAL(ST.outside, 2);
	CU_ASSERT_EQUAL(ST.over_limit, 55);
}

static void test_pollux_sia(void)
{
	const gp_job *j;

	CU_ASSERT_EQUAL_FATAL(load(T("pollux-workload-6.csv"), NULL), GP_OK);
	CU_ASSERT_STRING_EQUAL(L.format, "pollux");
	CU_ASSERT_EQUAL(L.n, 160);
	j = &L.jobs[0];         /* cifar10-0,53,cifar10,6,2048 */
	CU_ASSERT_STRING_EQUAL(j->id, "cifar10-0");
	CU_ASSERT_DOUBLE_EQUAL(j->submit, 53, 1e-9);
	CU_ASSERT_STRING_EQUAL(j->more->model.name, "resnet18-cifar"); /* catalog alias of cifar10 */
	CU_ASSERT_EQUAL(j->gpus, 6);
	/* Per-GPU batch ceil(2048 / 6) = 342; work 100 epochs x 50,000
	 * CIFAR-10 images / 2048 = 2441.4 -> 2442 iterations. */
	CU_ASSERT_EQUAL(j->batch_size, 342);
	CU_ASSERT(j->duration < 0);
	CU_ASSERT_EQUAL(j->iterations, 2442);
	j = &L.jobs[159];       /* cifar10-159,28189,cifar10,8,2048 */
	CU_ASSERT_STRING_EQUAL(j->id, "cifar10-159");
	CU_ASSERT_DOUBLE_EQUAL(j->submit, 28189, 1e-9);
	CU_ASSERT_PTR_NOT_NULL(by_id("ncf-158"));
	/* ncf-158,27229,ncf,1,32768: one GPU; 10 x 4,970,845 / 32768 =
	 * 1516.98 -> 1517 iterations. */
	CU_ASSERT_EQUAL(by_id("ncf-158")->batch_size, 32768);
	CU_ASSERT_EQUAL(by_id("ncf-158")->iterations, 1517);

	/* Sia's Saturn workloads write times as decimals ("401.0"). */
	CU_ASSERT_EQUAL_FATAL(load(T("sia-saturn-workload-1.csv"), NULL), GP_OK);
	CU_ASSERT_STRING_EQUAL(L.format, "pollux");
	CU_ASSERT_EQUAL(L.n, 160);
	CU_ASSERT_DOUBLE_EQUAL(L.jobs[0].submit, 401, 1e-9);
	j = &L.jobs[159];       /* bert-159,28098.0,bert,8,384 */
	CU_ASSERT_STRING_EQUAL(j->id, "bert-159");
	CU_ASSERT_DOUBLE_EQUAL(j->submit, 28098, 1e-9);
	CU_ASSERT_STRING_EQUAL(j->more->model.name, "bert-base");
	/* 384 over 8 GPUs = 48 each; 2 x 88,641 / 384 = 461.7 -> 462. */
	CU_ASSERT_EQUAL(j->batch_size, 48);
	CU_ASSERT_EQUAL(j->iterations, 462);
}

/* The work table against the final iteration counts of the Pollux
 * artifact's validation-<B>.csv (petuum/adaptdl osdi21-artifact,
 * simulator/traces/<app>/), which ran each application at batch B. */
static void test_pollux_work(void)
{
	/* imagenet: 90 x 1,281,167 / 200 = 576,525.15; validation-200 ends at
	 * iteration 576,525 (its rows count 6405-6406 per epoch). */
	CU_ASSERT_EQUAL(gp_trace_pollux_iterations("imagenet", 200), 576526);
	/* yolov3: 50 x 16,551 / 8 = 103,443.75; validation-8 ends at 103,444. */
	CU_ASSERT_EQUAL(gp_trace_pollux_iterations("yolov3", 8), 103444);
	/* ncf: 10 x 4,970,845 / 256 = 194,173.6; validation-256 ends at 194,174. */
	CU_ASSERT_EQUAL(gp_trace_pollux_iterations("ncf", 256), 194174);
	/* bert: 2 x 88,641 / 12 = 14,773.5; validation-12 ends at 14,774. */
	CU_ASSERT_EQUAL(gp_trace_pollux_iterations("bert", 12), 14774);
	/* cifar10: 100 x 50,000 / 128 = 39,062.5. */
	CU_ASSERT_EQUAL(gp_trace_pollux_iterations("cifar10", 128), 39063);
	/* deepspeech2: 80 x 7,135 / 20 = 28,540. */
	CU_ASSERT_EQUAL(gp_trace_pollux_iterations("DeepSpeech2", 20), 28540);
	CU_ASSERT_EQUAL(gp_trace_pollux_iterations("resnet", 64), 0);
	CU_ASSERT_EQUAL(gp_trace_pollux_iterations("cifar10", 0), 0);
}

static void test_gavel(void)
{
	const gp_job *j;

	/* Legacy 7-field msr/ layout. */
	CU_ASSERT_EQUAL_FATAL(load(T("gavel-msr-23dbec.trace"), NULL), GP_OK);
	CU_ASSERT_STRING_EQUAL(L.format, "gavel");
	CU_ASSERT_EQUAL_FATAL(L.n, 9);
	j = &L.jobs[0];         /* Transformer (batch size 128) ... 14612 0.000000 1 */
	CU_ASSERT_STRING_EQUAL(j->id, "0");
	CU_ASSERT_STRING_EQUAL(j->more->model.name, "transformer");
	CU_ASSERT_EQUAL(j->batch_size, 128);
	CU_ASSERT_EQUAL(j->iterations, 14612);
	CU_ASSERT_EQUAL(j->gpus, 1);
	CU_ASSERT_EQUAL(j->precision, GP_PREC_FP32);
	CU_ASSERT(j->duration < 0);
	j = &L.jobs[1];         /* Recommendation (batch size 8192) ... 1550 11.000000 1 */
	CU_ASSERT_DOUBLE_EQUAL(j->submit, 11, 1e-9);
	CU_ASSERT_EQUAL(j->iterations, 1550);
	j = &L.jobs[8];         /* CycleGAN --n_steps 1 55992 188011.000000 8 */
	CU_ASSERT_STRING_EQUAL(j->id, "8");
	CU_ASSERT_STRING_EQUAL(j->more->model.name, "CycleGAN");      /* not in the catalog: as given */
	CU_ASSERT_DOUBLE_EQUAL(j->more->model.params, 0, 0);
	CU_ASSERT_EQUAL(j->batch_size, 0);
	CU_ASSERT_EQUAL(j->iterations, 55992);
	CU_ASSERT_EQUAL(j->gpus, 8);
	CU_ASSERT_DOUBLE_EQUAL(j->submit, 188011, 1e-9);

	/* Current 10-field layout; the file has no final newline. */
	CU_ASSERT_EQUAL_FATAL(load(T("gavel-artifact_evaluation.trace"), NULL), GP_OK);
	CU_ASSERT_STRING_EQUAL(L.format, "gavel");
	CU_ASSERT_EQUAL_FATAL(L.n, 15);
	j = &L.jobs[1];         /* Transformer (batch size 16) ... 11005 2 1 -1.000000 0 */
	CU_ASSERT_STRING_EQUAL(j->id, "1");
	CU_ASSERT_EQUAL(j->batch_size, 16);
	CU_ASSERT_EQUAL(j->gpus, 2);
	CU_ASSERT_EQUAL(j->iterations, 11005);
	/* ResNet-18 (batch size 128) ... --data_dir=%s/cifar10 ... 36030:
	 * Gavel's ResNet-18 is the CIFAR-10 network. */
	j = &L.jobs[2];
	CU_ASSERT_STRING_EQUAL(j->more->model.name, "resnet18-cifar");
	CU_ASSERT_EQUAL(j->batch_size, 128);
	CU_ASSERT_EQUAL(j->iterations, 36030);
	j = &L.jobs[14];        /* A3C rl --max-steps 0 8857 1 1 -1.000000 0 */
	CU_ASSERT_STRING_EQUAL(j->id, "14");
	CU_ASSERT_STRING_EQUAL(j->more->model.name, "A3C");
	CU_ASSERT_EQUAL(j->iterations, 8857);
	CU_ASSERT_EQUAL(j->line, 15);
}

static void test_native(void)
{
	const gp_job *j;

	CU_ASSERT_EQUAL_FATAL(load(T("gpuplan-example.csv"), NULL), GP_OK);
	CU_ASSERT_STRING_EQUAL(L.format, "gpuplan");
	CU_ASSERT_EQUAL_FATAL(L.n, 6);
	j = by_id("j0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->line, 3);    /* after the comment and the header */
	CU_ASSERT_DOUBLE_EQUAL(j->duration, 164, 1e-9);
	CU_ASSERT_EQUAL(j->iterations, 606);
	CU_ASSERT_EQUAL(j->type, GP_JOB_SINGLE_CARD);
	CU_ASSERT_EQUAL(j->klass, GP_CLASS_LS);
	CU_ASSERT_EQUAL(j->priority, 2);
	CU_ASSERT_EQUAL(j->gpu_milli, 1000);
	CU_ASSERT_EQUAL(j->gpu_mem_mib, 16384);
	CU_ASSERT_EQUAL(j->cpu_milli, 4000);
	CU_ASSERT_EQUAL(j->mem_mib, 32768);
	CU_ASSERT_STRING_EQUAL(j->gpu_models, "A100-SXM4-80GB|H100-SXM5-80GB");
	CU_ASSERT(gp_job_accepts_model(j, "H100-SXM5-80GB"));
	CU_ASSERT(!gp_job_accepts_model(j, "V100"));
	CU_ASSERT_STRING_EQUAL(j->environment, "team-a");
	CU_ASSERT_STRING_EQUAL(j->more->model.name, "vgg19");
	CU_ASSERT_DOUBLE_EQUAL(j->more->model.params, 143.7e6, 1);
	CU_ASSERT_EQUAL(j->more->model.layers, 19);
	CU_ASSERT_EQUAL(j->more->model.is_transformer, 0);
	CU_ASSERT_EQUAL(j->batch_size, 64);
	CU_ASSERT_EQUAL(j->optimizer, GP_OPT_MOMENTUM);
	CU_ASSERT_EQUAL(j->precision, GP_PREC_FP32);
	CU_ASSERT_DOUBLE_EQUAL(j->more->deadline, 600, 1e-9);

	j = by_id("j2");        /* only iterations: duration from the perf model */
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT(j->duration < 0);
	CU_ASSERT_EQUAL(j->iterations, 157);
	CU_ASSERT_EQUAL(j->type, GP_JOB_SINGLE_NODE);
	CU_ASSERT_EQUAL(j->klass, GP_CLASS_BE);         /* gp_job_init default */
	CU_ASSERT_EQUAL(j->optimizer, GP_OPT_ADAM);
	CU_ASSERT_PTR_NULL(j->environment);

	j = by_id("j3");        /* shared GPU; quoted environment with a comma */
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->gpu_milli, 500);
	CU_ASSERT_EQUAL(j->gpu_mem_mib, 8192);
	CU_ASSERT_STRING_EQUAL(j->environment, "team, c");
	CU_ASSERT_EQUAL(j->type, GP_JOB_SINGLE_CARD);   /* derived from gpus */

	j = by_id("j4");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->type, GP_JOB_PS_WORKER);
	CU_ASSERT_EQUAL(j->ps, 1);
	CU_ASSERT_EQUAL(j->workers, 3);
	CU_ASSERT_EQUAL(j->precision, GP_PREC_BF16);

	j = by_id("j5");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->type, GP_JOB_RING_ALLREDUCE); /* 8 GPUs, no type */
	CU_ASSERT_EQUAL(j->more->model.is_transformer, 1);
	CU_ASSERT_EQUAL(j->more->model.hidden, 1024);
	CU_ASSERT_EQUAL(j->more->model.seq_len, 1024);
	CU_ASSERT_DOUBLE_EQUAL(j->more->model.flops_per_sample, 2.1e12, 1);
	CU_ASSERT_DOUBLE_EQUAL(j->more->deadline, 3600, 1e-9);
}

static void test_detect_and_force(void)
{
	CU_ASSERT_EQUAL(load(T("tiresias-60_job.csv"), "auto"), GP_OK);
	CU_ASSERT_STRING_EQUAL(L.format, "tiresias");
	CU_ASSERT_EQUAL(load(T("gavel-msr-23dbec.trace"), "GAVEL"), GP_OK);
	CU_ASSERT_EQUAL(L.n, 9);

	/* A dialect that does not fit the header. */
	CU_ASSERT_EQUAL(load(T("tiresias-60_job.csv"), "philly"), GP_EINPUT);
	CU_ASSERT_EQUAL(E.line, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, "missing column 'timestamp'"));
	CU_ASSERT_EQUAL(L.n, 0);
	CU_ASSERT_EQUAL(load(T("tiresias-60_job.csv"), "slurm"), GP_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, "unknown trace format 'slurm'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, "gavel"));

	/* Files that are not traces. */
	CU_ASSERT_EQUAL(load(gp_test_path("include/gpuplan/io/trace.h"), NULL), GP_EINPUT);
	CU_ASSERT_EQUAL(E.line, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, "cannot tell the trace format"));
	CU_ASSERT_EQUAL(load(T("no-such-trace.csv"), NULL), GP_EIO);
	CU_ASSERT_EQUAL(L.n, 0);
}

/* Malformed inputs: each reported at FILE:LINE(:COL) with its reason. */
static void test_bad_files(void)
{
	static const struct {
		const char *file, *format;
		int line, col;
		const char *msg;
	} cases[] = {
		{ "bad/tiresias-gpu-word.csv", NULL, 3, 3, "'num_gpu' must be a whole number in 1..65536, got 'eight'" },
		{ "bad/tiresias-negative-submit.csv", NULL, 3, 5, "'submit_time' must be a number" },
		{ "bad/tiresias-extra-field.csv", NULL, 3, 25, "8 fields where the header has 7" },
		{ "bad/philly-cut-short.csv", NULL, 4, 25, "2 fields where the header has 5: the row ends here" },
		{ "bad/muri-priority-word.csv", NULL, 2, 49, "'priority' must be a whole number" },
		{ "bad/philly-month-13.csv", NULL, 4, 1, "'timestamp' must be a date 'YYYY-MM-DD HH:MM:SS', got '2017-13-29 07:58:32'" },
		{ "bad/philly-gpu-time.csv", NULL, 3, 30, "'gpu_time' 2951 is not duration x num_gpus = 5902" },
		{ "bad/pollux-no-batch-size.csv", NULL, 1, 0, "looks like 'pollux' but lacks 'batch_size'" },
		{ "bad/pollux-no-batch-size.csv", "pollux", 1, 0, "missing column 'batch_size' required by the 'pollux' format" },
		{ "bad/gavel-mixed-layouts.trace", NULL, 2, 0, "10 fields where this Gavel trace has 7" },
		{ "bad/gavel-job-type.trace", NULL, 1, 1, "'job_type' must read 'MODEL (batch size N)'" },
		{ "bad/gpuplan-unknown-column.csv", NULL, 1, 25, "unknown column 'gpu'" },
		{ "bad/gpuplan-duplicate-id.csv", NULL, 4, 0, "duplicate job id 'job-a' (first on line 2)" },
		{ "bad/gpuplan-no-work.csv", NULL, 3, 0, "job 'job-b' needs a 'duration' or 'iterations'" },
		{ "bad/gpuplan-unterminated-quote.csv", NULL, 2, 15, "unterminated quoted field" },
		{ "bad/gpuplan-shared-multi-gpu.csv", NULL, 3, 16, "needs 'gpus' = 1, not 2" },
		{ "bad/openb-shared-multi-gpu.csv", NULL, 3, 29, "a 2-GPU task must take whole GPUs (gpu_milli 1000), not 460" },
		{ "bad/openb-deleted-before-scheduled.csv", NULL, 3, 55, "'deletion_time' 1558380 is before 'scheduled_time' 1558381" },
		{ "bad/openb-qos-word.csv", NULL, 2, 36, "'qos' must be LS, BE, Guaranteed or Burstable, got 'Gold'" },
		{ "bad/openb-no-deletion.csv", NULL, 3, 52, "missing value for 'deletion_time'" },
		{ "bad/openb-duplicate-name.csv", NULL, 4, 0, "duplicate job id 'openb-pod-0000' (first on line 2)" },
		{ "bad/openb-empty-gpu-model.csv", NULL, 2, 35, "empty GPU model name in 'V100M16||V100M32'" },
	};
	size_t i;
	char path[512];

	for (i = 0; i < GP_ARRAY_SIZE(cases); i++) {
		snprintf(path, sizeof(path), "%s%s", T(""), cases[i].file);
		CU_ASSERT_EQUAL(load(path, cases[i].format), GP_EINPUT);
		CU_ASSERT_STRING_EQUAL(E.file, path);
		CU_ASSERT_EQUAL(E.line, cases[i].line);
		CU_ASSERT_EQUAL(E.col, cases[i].col);
		if (!strstr(E.msg, cases[i].msg))
			fprintf(stderr, "%s: got '%s'\n", cases[i].file, E.msg);
		CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, cases[i].msg));
		CU_ASSERT_EQUAL(L.n, 0);
	}
}

/* The real openb default pod list (8,152 pods).  Counts by num_gpu
 * (0:1088, 1:6989, 2:16, 4:15, 8:44) are the trace README's; the Pending
 * pods without scheduled_time (860 with one GPU, 1 with two, 36 CPU-only)
 * were counted with awk; rows below are read off the file. */
static void test_openb_default(void)
{
	size_t i, by_gpus[9] = { 0 }, shared = 0, ls = 0;
	const gp_job *j;

	CU_ASSERT_EQUAL_FATAL(load(OB("openb_pod_list_default.csv"), NULL), GP_OK);
	CU_ASSERT_STRING_EQUAL(L.format, "openb");
	CU_ASSERT_EQUAL(ST.rows, 8152);
	CU_ASSERT_EQUAL(ST.left_out, 1088 + 861);
	CU_ASSERT_EQUAL(L.left_out, 1088 + 861);
	CU_ASSERT_STRING_EQUAL(L.left_out_note, "1088 CPU-only tasks, 861 pods never scheduled");
	CU_ASSERT_EQUAL(L.skipped, 0);
	CU_ASSERT_EQUAL_FATAL(L.n, 8152 - 1088 - 861);
	for (i = 0; i < L.n; i++) {
		j = &L.jobs[i];
		if (j->gpus >= 0 && j->gpus <= 8)
			by_gpus[j->gpus]++;
		shared += j->gpu_milli < 1000;
		ls += j->klass == GP_CLASS_LS;
		CU_ASSERT(j->duration >= 0);
		CU_ASSERT_PTR_NULL(j->gpu_models);
		CU_ASSERT_EQUAL(j->type, j->gpus > 1 ? GP_JOB_SINGLE_NODE : GP_JOB_SINGLE_CARD);
	}
	CU_ASSERT_EQUAL(by_gpus[0], 0);
	CU_ASSERT_EQUAL(by_gpus[1], 6989 - 860);
	CU_ASSERT_EQUAL(by_gpus[2], 16 - 1);
	CU_ASSERT_EQUAL(by_gpus[4], 15);
	CU_ASSERT_EQUAL(by_gpus[8], 44);
	CU_ASSERT_EQUAL(shared, 2573);          /* awk: num_gpu 1, gpu_milli < 1000, scheduled */
	CU_ASSERT_EQUAL(ls, 3596);              /* LS 3589 + Guaranteed 7 (awk) */
	CU_ASSERT(sorted_by_submit());

	/* First row: openb-pod-0000,12000,16384,1,1000,,LS,Running,0,12537496,0 */
	j = &L.jobs[0];
	CU_ASSERT_STRING_EQUAL(j->id, "openb-pod-0000");
	CU_ASSERT_EQUAL(j->line, 2);
	CU_ASSERT_DOUBLE_EQUAL(j->submit, 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(j->duration, 12537496, 1e-9);
	CU_ASSERT_EQUAL(j->gpus, 1);
	CU_ASSERT_EQUAL(j->gpu_milli, 1000);
	CU_ASSERT_EQUAL(j->cpu_milli, 12000);
	CU_ASSERT_EQUAL(j->mem_mib, 16384);
	CU_ASSERT_EQUAL(j->klass, GP_CLASS_LS);
	/* A sharing task: openb-pod-0001,6000,12288,1,460,,LS,Running,427061,12902960,427061 */
	j = by_id("openb-pod-0001");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->gpu_milli, 460);
	CU_ASSERT_DOUBLE_EQUAL(j->duration, 12902960 - 427061, 1e-9);
	/* Last row, last submit:
	 * openb-pod-8151,3152,5600,1,590,,BE,Failed,12901761,12901792,12901762 */
	j = &L.jobs[L.n - 1];
	CU_ASSERT_STRING_EQUAL(j->id, "openb-pod-8151");
	CU_ASSERT_EQUAL(j->line, 8153);
	CU_ASSERT_DOUBLE_EQUAL(j->submit, 12901761, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(j->duration, 30, 1e-9);  /* deletion - scheduled */
	CU_ASSERT_EQUAL(j->gpu_milli, 590);
	CU_ASSERT_EQUAL(j->klass, GP_CLASS_BE);
	/* Burstable, 8 GPUs: ...,88000,327680,8,1000,,Burstable,Failed,10034615,10035454,10034615 */
	j = by_id("openb-pod-0128");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->klass, GP_CLASS_BE);
	CU_ASSERT_EQUAL(j->type, GP_JOB_SINGLE_NODE);
	CU_ASSERT_EQUAL(j->gpus, 8);
	CU_ASSERT_EQUAL(j->cpu_milli, 88000);
	CU_ASSERT_DOUBLE_EQUAL(j->duration, 839, 1e-9);
	/* Guaranteed -> LS */
	CU_ASSERT_EQUAL(by_id("openb-pod-0129")->klass, GP_CLASS_LS);
	/* Pending (no scheduled_time) and CPU-only pods are left out. */
	CU_ASSERT_PTR_NULL(by_id("openb-pod-0061"));
	CU_ASSERT_PTR_NULL(by_id("openb-pod-0210"));

	/* The window counts jobs, not left-out rows. */
	{
		gp_trace_opts o;

		gp_trace_opts_init(&o);
		o.start = 12900000;
		CU_ASSERT_EQUAL_FATAL(load_opts(OB("openb_pod_list_default.csv"), &o), GP_OK);
		CU_ASSERT_EQUAL(L.left_out, 1949);
		CU_ASSERT_STRING_EQUAL(L.jobs[L.n - 1].id, "openb-pod-8151");
	}
}

/* gpu_spec names: catalog spellings for the disclosed models, openb's own
 * for G1-G3, and each matches exactly the openb nodes of those models
 * (node counts by model from the trace README: G2 549, G3 39, T4 404,
 * P100 134, V100M16 55, V100M32 30, A10 2). */
static void test_openb_gpu_spec(void)
{
	static const struct {
		const char *id, *models;
		int nodes;
	} want[] = {
		{ "openb-pod-0009", "V100-SXM2-16GB|V100-SXM2-32GB", 55 + 30 },
		{ "openb-pod-0021", "G2|P100|T4|V100-SXM2-16GB|V100-SXM2-32GB", 549 + 134 + 404 + 55 + 30 },
		{ "openb-pod-0074", "G3", 39 },
		{ "openb-pod-0236", "V100-SXM2-32GB", 30 },
		{ "openb-pod-0449", "A10|T4", 2 + 404 },
		{ "openb-pod-1639", "G2", 549 },
	};
	gp_cluster c;
	gp_alloc a;
	gp_policy_ctx ctx;
	gp_error e = GP_ERROR_INIT;
	size_t i;
	int node, n;

	CU_ASSERT_EQUAL_FATAL(load(OB("openb_pod_list_gpuspec33_excerpt.csv"), NULL), GP_OK);
	CU_ASSERT_EQUAL_FATAL(L.n, GP_ARRAY_SIZE(want));
	CU_ASSERT_EQUAL_FATAL(gp_cluster_load(OB("openb_node_list_gpu_node.csv"), &c, &e), GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_alloc_init(&a, &c), GP_OK);
	memset(&ctx, 0, sizeof(ctx));
	ctx.cluster = &c;
	ctx.alloc = &a;
	/* The undisclosed models have an entry, with no figures. */
	CU_ASSERT_PTR_NOT_NULL_FATAL(gp_catalog_find(&c.catalog, "G2"));
	CU_ASSERT_STRING_EQUAL(gp_catalog_find(&c.catalog, "G2")->vendor, "undisclosed");
	CU_ASSERT_DOUBLE_EQUAL(gp_catalog_find(&c.catalog, "G3")->fp16_tflops, 0, 0);
	CU_ASSERT_PTR_NULL(gp_catalog_find(&c.catalog, "G1")); /* not in this list */
	for (i = 0; i < GP_ARRAY_SIZE(want); i++) {
		const gp_job *j = by_id(want[i].id);

		CU_ASSERT_PTR_NOT_NULL_FATAL(j);
		CU_ASSERT_STRING_EQUAL(j->gpu_models, want[i].models);
		for (node = n = 0; node < c.nnodes; node++)
			n += gp_node_eligible(&ctx, node, j);
		if (n != want[i].nodes)
			fprintf(stderr, "%s: %d eligible nodes\n", want[i].id, n);
		CU_ASSERT_EQUAL(n, want[i].nodes);
	}
	gp_alloc_release(&a);
	gp_cluster_release(&c);
}

/* The five-column lists have no times: refused with the reason. */
static void test_openb_order_only(void)
{
	CU_ASSERT_EQUAL(load(OB("openb_pod_list_multigpu50_head.csv"), NULL), GP_EINPUT);
	CU_ASSERT_EQUAL(E.line, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, "no 'creation_time' column"));
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, "--inflate"));
	CU_ASSERT_EQUAL(L.n, 0);
	/* A Tiresias trace is not taken for openb, nor openb for another. */
	CU_ASSERT_EQUAL(load(T("tiresias-60_job.csv"), "openb"), GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, "missing column 'name' required by the 'openb' format"));
}

static void test_skip_bad(void)
{
	gp_trace_opts o;

	gp_trace_opts_init(&o);
	o.skip_bad = 1;
	CU_ASSERT_EQUAL_FATAL(load_opts(T("bad/philly-month-13.csv"), &o), GP_OK);
	CU_ASSERT_EQUAL(L.n, 2);
	CU_ASSERT_EQUAL(L.skipped, 1);
	CU_ASSERT_EQUAL(ST.skipped, 1);
	CU_ASSERT_EQUAL(ST.first_bad.status, GP_EINPUT);
	CU_ASSERT_EQUAL(ST.first_bad.line, 4);
	/* Skipped rows do not move the origin: 06:13:03 is the first. */
	CU_ASSERT_DOUBLE_EQUAL(L.jobs[0].submit, 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(L.jobs[1].submit, 2932, 1e-9);   /* 07:01:55 */

	CU_ASSERT_EQUAL_FATAL(load_opts(T("bad/gpuplan-duplicate-id.csv"), &o), GP_OK);
	CU_ASSERT_EQUAL(L.n, 2);
	CU_ASSERT_EQUAL(L.skipped, 1);
	CU_ASSERT_EQUAL(ST.first_bad.line, 4);
	CU_ASSERT_DOUBLE_EQUAL(by_id("job-a")->submit, 0, 1e-9); /* the first one kept */

	/* A clean file reports nothing skipped. */
	CU_ASSERT_EQUAL_FATAL(load_opts(T("tiresias-60_job.csv"), &o), GP_OK);
	CU_ASSERT_EQUAL(L.skipped, 0);
	CU_ASSERT_EQUAL(ST.first_bad.status, GP_OK);
}

static void test_caps(void)
{
	gp_trace_opts o;

	gp_trace_opts_init(&o);
	o.max_rows = 5;
	CU_ASSERT_EQUAL(load_opts(T("tiresias-60_job.csv"), &o), GP_EINPUT);
	CU_ASSERT_EQUAL(E.line, 7);     /* the sixth data row */
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, "more than 5 data rows"));
	CU_ASSERT_EQUAL(L.n, 0);

	gp_trace_opts_init(&o);
	o.max_bytes = 1000;             /* 60_job.csv is 1871 bytes */
	CU_ASSERT_EQUAL(load_opts(T("tiresias-60_job.csv"), &o), GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, "1000-byte limit"));
}

/* In-memory buffers: quoting, blank and comment lines, empty inputs. */
static void test_buffers(void)
{
	char quoted[] = "\xef\xbb\xbfid,submit,gpus,duration,model,environment\r\n"
			"\r\n"
			"# a comment\n"
			"\"a \"\"quoted\"\" id\", 5 , 2 ,10,\"resnet50\",\"x,y\"\n"
			"  b ,1,1,1,,\n";
	char header_only[] = "name,time,application,num_replicas,batch_size\n";
	char empty[] = "\n\n# nothing\n";
	char junk_after_quote[] = "id,submit,gpus,duration\n\"a\"b,0,1,1\n";
	gp_error e = GP_ERROR_INIT;

	gp_joblist_release(&L);
	gp_joblist_init(&L);
	CU_ASSERT_EQUAL_FATAL(gp_trace_load_buffer("mem", quoted, strlen(quoted),
						   NULL, &L, &e), GP_OK);
	CU_ASSERT_EQUAL_FATAL(L.n, 2);
	CU_ASSERT_STRING_EQUAL(L.jobs[0].id, "b");      /* submit 1 */
	CU_ASSERT_EQUAL(L.jobs[0].line, 5);
	CU_ASSERT_STRING_EQUAL(L.jobs[1].id, "a \"quoted\" id");
	CU_ASSERT_EQUAL(L.jobs[1].gpus, 2);
	CU_ASSERT_STRING_EQUAL(L.jobs[1].environment, "x,y");
	CU_ASSERT_STRING_EQUAL(L.jobs[1].more->model.name, "resnet50");

	CU_ASSERT_EQUAL(gp_trace_load_buffer("mem", header_only, strlen(header_only),
					     NULL, &L, &e), GP_OK);
	CU_ASSERT_EQUAL(L.n, 0);
	CU_ASSERT_STRING_EQUAL(L.format, "pollux");

	CU_ASSERT_EQUAL(gp_trace_load_buffer("mem", empty, strlen(empty), NULL,
					     &L, &e), GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "no header and no rows"));

	CU_ASSERT_EQUAL(gp_trace_load_buffer("mem", junk_after_quote,
					     strlen(junk_after_quote), NULL, &L, &e),
			GP_EINPUT);
	CU_ASSERT_EQUAL(e.line, 2);
	CU_ASSERT_EQUAL(e.col, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "unexpected 'b' after a quoted field"));
}

/* A file is read a 1 MiB window at a time (memory): rows across
 * window ends, a line longer than the window, CRLF and a last line without
 * its newline give what the whole text gives, and so does a bad row's
 * FILE:LINE:COL. */
static char *big_text(size_t *len, int bad)
{
	gp_sbuf sb;
	size_t i;
	char *env = gp_xmalloc(1500001);

	memset(env, 'e', 1500000);
	env[1500000] = '\0';
	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "id,submit,gpus,duration,environment,model\r\n");
	for (i = 0; i < 60000; i++) {
		if (bad && i == 55000)
			gp_sbuf_adds(&sb, "bad,1,x,60,,\n");
		gp_sbuf_addf(&sb, "j%zu,%zu,%zu,60,vc%zu,%s%s", i, i, 1 + i % 4, i % 5,
			     i % 3 ? "resnet50" : "", i % 2 ? "\n" : "\r\n");
	}
	gp_sbuf_addf(&sb, "long,70000,1,60,%s,\n", env);
	gp_sbuf_adds(&sb, "last,70001,2,30,vc1,bert-large");
	free(env);
	*len = sb.len;
	return gp_sbuf_detach(&sb);
}

static void test_window(void)
{
	char path[] = "/tmp/gpuplan-trace-XXXXXX";
	int fd = mkstemp(path), bad;
	gp_joblist W;
	gp_error ew;
	size_t len, i, diff = 0;

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	for (bad = 0; bad <= 1; bad++) {
		char *text = big_text(&len, bad);
		FILE *fp = fopen(path, "wb");
		int rw, rl;

		CU_ASSERT_FATAL(fp != NULL);
		CU_ASSERT_EQUAL(fwrite(text, 1, len, fp), len);
		fclose(fp);
		gp_joblist_init(&W);
		gp_error_clear(&ew);
		gp_error_clear(&E);
		rw = gp_trace_load_buffer(path, text, len, NULL, &W, &ew);
		gp_joblist_release(&L);
		gp_joblist_init(&L);
		rl = gp_trace_load(path, NULL, &L, &E);
		CU_ASSERT_EQUAL(rw, bad ? GP_EINPUT : GP_OK);
		CU_ASSERT_EQUAL(rl, rw);
		if (bad) {
			CU_ASSERT_EQUAL(E.line, 55002);
			CU_ASSERT_EQUAL(E.line, ew.line);
			CU_ASSERT_EQUAL(E.col, ew.col);
			CU_ASSERT_STRING_EQUAL(E.msg, ew.msg);
		} else {
			CU_ASSERT_EQUAL_FATAL(L.n, 60002);
			CU_ASSERT_EQUAL_FATAL(W.n, L.n);
			for (i = 0; i < L.n; i++) {
				const gp_job *a = &L.jobs[i], *b = &W.jobs[i];

				diff += strcmp(a->id, b->id) || a->submit != b->submit ||
					a->gpus != b->gpus || a->line != b->line ||
					strcmp(a->environment, b->environment) ||
					strcmp(a->more->model.name, b->more->model.name);
			}
			CU_ASSERT_EQUAL(diff, 0);
			CU_ASSERT_EQUAL(strlen(L.jobs[60000].environment), 1500000);
			CU_ASSERT_STRING_EQUAL(L.jobs[60001].id, "last");
			CU_ASSERT_EQUAL(L.jobs[60001].line, 60003);
			CU_ASSERT_STRING_EQUAL(L.jobs[60001].more->model.name, "bert-large");
			/* one shared copy per distinct environment and model */
			CU_ASSERT_PTR_EQUAL(L.jobs[1].more, L.jobs[2].more);
			CU_ASSERT_PTR_EQUAL(L.jobs[3].environment, L.jobs[8].environment);
		}
		gp_joblist_release(&W);
		free(text);
	}
	unlink(path);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("trace");

	gp_joblist_init(&L);
	gp_test_add(s, "format table", test_formats);
	gp_test_add(s, "read a window at a time", test_window);
	gp_test_add(s, "tiresias", test_tiresias);
	gp_test_add(s, "muri milliseconds", test_muri_ms);
	gp_test_add(s, "philly full table", test_philly);
	gp_test_add(s, "window and limit", test_window_limit);
	gp_test_add(s, "pollux and sia", test_pollux_sia);
	gp_test_add(s, "pollux work table", test_pollux_work);
	gp_test_add(s, "gavel both layouts", test_gavel);
	gp_test_add(s, "gpuplan native", test_native);
	gp_test_add(s, "detect and force", test_detect_and_force);
	gp_test_add(s, "malformed files", test_bad_files);
	gp_test_add(s, "openb default pod list", test_openb_default);
	gp_test_add(s, "openb gpu_spec models", test_openb_gpu_spec);
	gp_test_add(s, "openb order-only lists", test_openb_order_only);
	gp_test_add(s, "skip bad rows", test_skip_bad);
	gp_test_add(s, "caps", test_caps);
	gp_test_add(s, "buffers", test_buffers);
}

int main(int argc, char **argv)
{
	int rc = gp_test_main(argc, argv, register_tests);

	gp_joblist_release(&L);
	return rc;
}
