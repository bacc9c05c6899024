/* Failure inputs and injection: the failure CSV (good rows, located
 * errors), heartbeat detection, the seeded generator, the merged stream,
 * the Weibull fit with censoring, failure-model files, the Titan reader. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/failures.h"
#include "gpuplan/sim/failfit.h"
#include "gpuplan/sim/failures.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

static gp_cluster cl;

static void load_cluster(void)
{
	gp_error err = GP_ERROR_INIT;

	gp_cluster_init(&cl);
	CU_ASSERT_FATAL(gp_cluster_load(gp_test_path("topologies/example-cluster.yaml"), &cl,
					&err) == GP_OK);
}

static int parse(const char *text, gp_fail_list *l, gp_error *err)
{
	return gp_fail_csv_parse(text, strlen(text), "f.csv", &cl, l, err);
}

static void test_csv_good(void)
{
	static const char text[] =
		"# a comment\r\n"
		"time_s,node,gpu,kind,repair_s\r\n"
		"7200,a100-r0-1,,node,3600\n"
		"\n"
		"60.5,a100-r0-0,3,gpu,\n"
		"60.5,h100-r4-0,,link,10\n"
		"100,pcie-r6-0,1,,\n";
	gp_fail_list l;
	gp_error err = GP_ERROR_INIT;

	load_cluster();
	CU_ASSERT_EQUAL_FATAL(parse(text, &l, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(l.n, 4);
	/* Sorted by time, file order among equal times. */
	CU_ASSERT_DOUBLE_EQUAL(l.ev[0].time, 60.5, 0);
	CU_ASSERT_EQUAL(l.ev[0].node, gp_cluster_find_node(&cl, "a100-r0-0"));
	CU_ASSERT_EQUAL(l.ev[0].gpu, 3);
	CU_ASSERT_EQUAL(l.ev[0].kind, GP_FAIL_GPU);
	CU_ASSERT(l.ev[0].repair_s < 0);
	CU_ASSERT_EQUAL(l.ev[0].line, 5);
	CU_ASSERT_EQUAL(l.ev[1].kind, GP_FAIL_LINK);
	CU_ASSERT_EQUAL(l.ev[1].gpu, -1);
	CU_ASSERT_DOUBLE_EQUAL(l.ev[1].repair_s, 10, 0);
	/* Empty kind with a GPU: gpu. */
	CU_ASSERT_EQUAL(l.ev[2].kind, GP_FAIL_GPU);
	CU_ASSERT_EQUAL(l.ev[2].gpu, 1);
	CU_ASSERT_EQUAL(l.ev[3].kind, GP_FAIL_NODE);
	CU_ASSERT_DOUBLE_EQUAL(l.ev[3].repair_s, 3600, 0);
	gp_fail_list_release(&l);
	gp_cluster_release(&cl);
}

static void expect_error(const char *text, int line, int col, const char *needle)
{
	gp_fail_list l;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL(parse(text, &l, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, line);
	CU_ASSERT_EQUAL(err.col, col);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, needle));
	if (err.line != line || err.col != col || !strstr(err.msg, needle))
		fprintf(stderr, "\n  got %d:%d: %s\n", err.line, err.col, err.msg);
}

static void test_csv_errors(void)
{
	load_cluster();
	expect_error("time_s,node,gpu,kind,repair_s\n1,a100-r9-0,,node,\n", 2, 3, "unknown node 'a100-r9-0'");
	expect_error("time_s,node,gpu,kind,repair_s\n1,a100-r0-0,8,gpu,\n", 2, 13, "has no GPU '8'");
	expect_error("time_s,node,gpu,kind,repair_s\n-5,a100-r0-0,,node,\n", 2, 1, "time_s must be");
	expect_error("time_s,node,gpu,kind,repair_s\nnan,a100-r0-0,,node,\n", 2, 1, "time_s must be");
	expect_error("time_s,node,gpu,kind,repair_s\n1,a100-r0-0,,node,inf\n", 2, 19, "repair_s must be");
	expect_error("time_s,node,gpu,kind,repair_s\n1,a100-r0-0,,node,-1\n", 2, 19, "repair_s must be");
	expect_error("time_s,node,gpu,kind,repair_s\n1,a100-r0-0,,disk,\n", 2, 14, "kind must be node, gpu or link");
	expect_error("time_s,node,gpu,kind,repair_s\n1,a100-r0-0,2,node,\n", 2, 15, "takes no GPU");
	expect_error("time_s,node,gpu,kind,repair_s\n1,a100-r0-0,,gpu,\n", 2, 14, "needs a GPU");
	expect_error("time_s,node,gpu,kind,repair_s\n1,a100-r0-0\n", 2, 12, "missing field 'gpu'");
	expect_error("time_s,node,gpus\n", 1, 13, "unknown column 'gpus'");
	expect_error("node,gpu\n", 1, 1, "no 'time_s' column");
	expect_error("# only a comment\n", 1, 1, "no header line");
	gp_cluster_release(&cl);
}

/* Period 5, 3 misses: a failure 12 s after a heartbeat's phase is first
 * missed at phase + 15 and seen at phase + 25; one exactly on a
 * heartbeat (phase + 10) misses that one and is seen at phase + 20. */
static void test_heartbeat(void)
{
	gp_heartbeat h;
	double ph, d;
	int node;

	gp_heartbeat_init(&h, 42);
	CU_ASSERT_DOUBLE_EQUAL(h.period_s, 5, 0);
	CU_ASSERT_EQUAL(h.misses, 3);
	for (node = 0; node < 50; node++) {
		ph = gp_heartbeat_phase(&h, node);
		CU_ASSERT(ph >= 0 && ph < 5);
		CU_ASSERT_DOUBLE_EQUAL(gp_heartbeat_detect(&h, node, 1000 * 5 + ph + 12),
				       1000 * 5 + ph + 25, 1e-6);
		CU_ASSERT_DOUBLE_EQUAL(gp_heartbeat_detect(&h, node, 1000 * 5 + ph + 10),
				       1000 * 5 + ph + 20, 1e-6);
		d = gp_heartbeat_detect(&h, node, 777.7) - 777.7;
		CU_ASSERT(d >= 10 - 1e-9 && d < 15);
	}
	/* Phases differ between nodes and follow the seed. */
	CU_ASSERT(gp_heartbeat_phase(&h, 0) != gp_heartbeat_phase(&h, 1));
	h.misses = 1;
	d = gp_heartbeat_detect(&h, 3, 50.0) - 50.0;
	CU_ASSERT(d >= 0 && d < 5);
}

/* Weibull samples at the midpoints of 100000 equal probability strips:
 * their mean is the requested mean within 0.1 %. */
static void test_weibull_mean(void)
{
	static const double shapes[] = { 0.7, 1.0, 2.88 };
	int s, i, n = 100000;

	for (s = 0; s < 3; s++) {
		double sum = 0;

		for (i = 0; i < n; i++)
			sum += gp_fail_weibull((i + 0.5) / n, shapes[s], 100.0);
		CU_ASSERT_DOUBLE_EQUAL(sum / n, 100.0, 0.1);
	}
	/* Exponential: the median is mean x ln 2. */
	CU_ASSERT_DOUBLE_EQUAL(gp_fail_weibull(0.5, 1.0, 100.0), 100.0 * log(2.0), 1e-9);
}

/* 336 GPUs with a 1000 h MTBF (exponential), repair at once: over 10,000
 * hours a renewal process gives 10 failures per GPU, 3360 in all
 * (Poisson sd 58; 4 sd allowed).  The stream is in time order, the same
 * for the same seed and different for another. */
static void test_generator(void)
{
	gp_fail_gen g;
	gp_fail_source *s, *s2;
	gp_fail_event e, e2;
	double last = 0, horizon = 10000 * 3600.0;
	int n = 0, same = 1, ordered = 1;

	load_cluster();
	gp_fail_gen_init(&g);
	g.mtbf_gpu_h = 1000;
	g.repair_h = 0;
	g.seed = 7;
	s = gp_fail_source_new(&cl, NULL, &g);
	s2 = gp_fail_source_new(&cl, NULL, &g);
	while (gp_fail_source_peek(s) < horizon) {
		CU_ASSERT_FATAL(gp_fail_source_pop(s, &e) == 0);
		CU_ASSERT_FATAL(gp_fail_source_pop(s2, &e2) == 0);
		if (e.time < last)
			ordered = 0;
		if (e.time != e2.time || e.node != e2.node || e.gpu != e2.gpu)
			same = 0;
		last = e.time;
		n++;
		CU_ASSERT(e.kind == GP_FAIL_GPU && e.gpu >= 0 && e.gpu < cl.nodes[e.node].ngpus);
	}
	CU_ASSERT(ordered);
	CU_ASSERT(same);
	CU_ASSERT(abs(n - 3360) < 4 * 58);
	gp_fail_source_free(s);
	gp_fail_source_free(s2);
	/* Another seed, another first failure. */
	s = gp_fail_source_new(&cl, NULL, &g);
	g.seed = 8;
	s2 = gp_fail_source_new(&cl, NULL, &g);
	CU_ASSERT(gp_fail_source_peek(s) != gp_fail_source_peek(s2));
	gp_fail_source_free(s);
	gp_fail_source_free(s2);

	/* Nodes with a 100 h MTBF and repairs of mean 100 h: a cycle is
	 * 200 h, so 48 nodes see 48 x 10000 / 200 = 2400 failures (sd ~49). */
	gp_fail_gen_init(&g);
	g.mtbf_node_h = 100;
	g.repair_h = 100;
	g.seed = 1;
	s = gp_fail_source_new(&cl, NULL, &g);
	n = 0;
	while (gp_fail_source_peek(s) < horizon) {
		gp_fail_source_pop(s, &e);
		CU_ASSERT(e.kind == GP_FAIL_NODE && e.gpu == -1 && e.repair_s >= 0);
		n++;
	}
	CU_ASSERT(abs(n - 2400) < 4 * 49);
	gp_fail_source_free(s);

	/* Never repaired: each node fails once. */
	g.repair_h = -1;
	s = gp_fail_source_new(&cl, NULL, &g);
	n = 0;
	while (gp_fail_source_pop(s, &e) == 0) {
		CU_ASSERT(e.repair_s < 0);
		n++;
	}
	CU_ASSERT_EQUAL(n, cl.nnodes);
	gp_fail_source_free(s);
	gp_cluster_release(&cl);
}

/* Wear-out (shape 2.88), 336 GPUs with a 1000 h MTBF, repaired at once,
 * over 500 h: in steady state failures come at the long-run rate, 336 x
 * 500 / 1000 = 168; with every GPU new at 0 only those whose first
 * lifetime is under 500 h fail: 336 x (1 - exp(-(500/1121.8)^2.88)) = 31
 * (scale 1000 / Gamma(1 + 1/2.88) = 1121.8 h). */
static void test_steady_state(void)
{
	gp_fail_gen g;
	gp_fail_source *s;
	gp_fail_event e;
	double scale = 1000 / tgamma(1 + 1 / 2.88), horizon = 500 * 3600.0, sum = 0;
	int n, i, m = 100000;

	load_cluster();
	gp_fail_gen_init(&g);
	g.mtbf_gpu_h = 1000;
	g.shape = 2.88;
	g.repair_h = 0;
	g.seed = 5;
	s = gp_fail_source_new(&cl, NULL, &g);
	for (n = 0; gp_fail_source_peek(s) < horizon; n++)
		gp_fail_source_pop(s, &e);
	CU_ASSERT(abs(n - 168) < 4 * 13);
	gp_fail_source_free(s);
	g.start_new = 1;
	s = gp_fail_source_new(&cl, NULL, &g);
	for (n = 0; gp_fail_source_peek(s) < horizon; n++)
		gp_fail_source_pop(s, &e);
	CU_ASSERT_DOUBLE_EQUAL(scale, 1121.8, 0.05);
	CU_ASSERT(abs(n - 31) < 4 * 6);
	gp_fail_source_free(s);
	gp_cluster_release(&cl);
	/* The residual's mean is E[T^2] / (2 E[T]); for shape 2 and mean 1:
	 * E[T^2] = scale^2 = 4 / pi, so 2 / pi. */
	for (i = 0; i < m; i++)
		sum += gp_fail_weibull_residual((i + 0.5) / m, 2.0, 1.0);
	CU_ASSERT_DOUBLE_EQUAL(sum / m, 2 / M_PI, 1e-3);
}

/* A file and the generator merge in time order. */
static void test_merge(void)
{
	static const char text[] = "time_s,node\n50,a100-r0-0\n1e9,a100-r0-1\n";
	gp_fail_list l;
	gp_error err = GP_ERROR_INIT;
	gp_fail_gen g;
	gp_fail_source *s;
	gp_fail_event e;
	double last = 0;
	int n = 0, from_file = 0;

	load_cluster();
	CU_ASSERT_FATAL(parse(text, &l, &err) == GP_OK);
	gp_fail_gen_init(&g);
	g.mtbf_node_h = 2000;
	g.seed = 3;
	s = gp_fail_source_new(&cl, &l, &g);
	CU_ASSERT_DOUBLE_EQUAL(gp_fail_source_peek(s), 50, 0);
	while (gp_fail_source_peek(s) <= 1e9 && n < 100000) {
		gp_fail_source_pop(s, &e);
		CU_ASSERT(e.time >= last);
		last = e.time;
		from_file += !e.generated;
		n++;
	}
	CU_ASSERT_EQUAL(from_file, 2);
	gp_fail_source_free(s);
	/* The file alone. */
	s = gp_fail_source_new(&cl, &l, NULL);
	CU_ASSERT_EQUAL(gp_fail_source_pop(s, &e), 0);
	CU_ASSERT_EQUAL(gp_fail_source_pop(s, &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(e.time, 1e9, 0);
	CU_ASSERT_EQUAL(gp_fail_source_pop(s, &e), -1);
	CU_ASSERT(isinf(gp_fail_source_peek(s)));
	gp_fail_source_free(s);
	gp_fail_list_release(&l);
	gp_cluster_release(&cl);
}

/* Maximum likelihood recovers a known Weibull: 20000 lifetimes with shape
 * 2 and scale 1000 h (hashed uniforms of seed 3), censored
 * at 1200 h (about 24 % survive).  Exponential data (shape 1) gives a
 * shape near 1 and an MTBF near time on test / failures. */
static void test_fit(void)
{
	int n = 20000, i;
	double *t = malloc((size_t)n * sizeof(*t));
	unsigned char *f = malloc((size_t)n);
	gp_weibull_result w;
	gp_error err = GP_ERROR_INIT;

	for (i = 0; i < n; i++) {
		double u = gp_fail_uniform(3, (uint64_t)i, 0, 0);
		double x = 1000.0 * 3600 * pow(-log(u), 1 / 2.0);

		f[i] = x < 1200.0 * 3600;
		t[i] = f[i] ? x : 1200.0 * 3600;
	}
	CU_ASSERT_EQUAL_FATAL(gp_weibull_fit(t, f, (size_t)n, &w, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(w.shape, 2.0, 0.06);
	CU_ASSERT_DOUBLE_EQUAL(w.scale_s / 3600, 1000.0, 15);
	CU_ASSERT(w.shape_lo < w.shape && w.shape < w.shape_hi);
	CU_ASSERT(w.shape_lo < 2.0 && 2.0 < w.shape_hi);
	CU_ASSERT(w.scale_lo_s < 1000.0 * 3600 && 1000.0 * 3600 < w.scale_hi_s);
	CU_ASSERT_DOUBLE_EQUAL(w.mtbf_s, w.scale_s * tgamma(1 + 1 / w.shape), 1e-6 * w.mtbf_s);
	CU_ASSERT(w.lr_p < 1e-6);
	for (i = 0; i < n; i++) {
		double u = gp_fail_uniform(12, (uint64_t)i, 0, 0);

		t[i] = -log(u) * 500.0;
		f[i] = 1;
	}
	CU_ASSERT_EQUAL_FATAL(gp_weibull_fit(t, f, (size_t)n, &w, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(w.shape, 1.0, 0.03);
	CU_ASSERT_DOUBLE_EQUAL(w.exp_mtbf_s, 500.0, 15);
	CU_ASSERT_DOUBLE_EQUAL(w.mtbf_s, w.exp_mtbf_s, 0.03 * w.exp_mtbf_s);
	/* Nothing failed, or a zero lifetime: input errors. */
	memset(f, 0, (size_t)n);
	CU_ASSERT_EQUAL(gp_weibull_fit(t, f, (size_t)n, &w, &err), GP_EINPUT);
	f[0] = 1;
	t[1] = 0;
	CU_ASSERT_EQUAL(gp_weibull_fit(t, f, (size_t)n, &w, &err), GP_EINPUT);
	free(t);
	free(f);
}

/* The Titan summary: 30207 GPUs, 5089 removed after a DBE/OTB event
 * (5027 old, 62 new); the fit's shape is above 1 (wear-out) for the old
 * batch, near 1 for the new. */
static void test_titan(void)
{
	gp_lifetimes l;
	gp_error err = GP_ERROR_INIT;
	size_t i, fails = 0, old_fails = 0;
	int old = -1;

	CU_ASSERT_EQUAL_FATAL(gp_lifetimes_load(gp_test_path("tests/data/titan/gc_summary_loc.csv"),
						&l, &err), GP_OK);
	CU_ASSERT_EQUAL(l.n, 30207);
	CU_ASSERT_EQUAL(l.skipped, 0);
	CU_ASSERT_EQUAL_FATAL(l.ngroups, 2);
	CU_ASSERT_STRING_EQUAL(l.groups[0], "new");
	CU_ASSERT_STRING_EQUAL(l.groups[1], "old");
	old = 1;
	for (i = 0; i < l.n; i++) {
		fails += l.failed[i];
		old_fails += l.failed[i] && l.group[i] == old;
	}
	CU_ASSERT_EQUAL(fails, 5089);
	CU_ASSERT_EQUAL(old_fails, 5027);
	gp_lifetimes_release(&l);
}

static void test_model_file(void)
{
	gp_fail_model m = { GP_FAIL_GPU, 2.5, 1000, 887.264, "old", "x.csv", 10, 3 }, back;
	gp_error err = GP_ERROR_INIT;
	gp_sbuf sb;
	FILE *fp;
	char path[] = "/tmp/gpuplan-fmXXXXXX";
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	gp_sbuf_init(&sb);
	gp_fail_model_format(&m, &sb);
	fp = fdopen(fd, "w");
	fwrite(sb.buf, 1, sb.len, fp);
	fclose(fp);
	CU_ASSERT_EQUAL_FATAL(gp_fail_model_load(path, &back, &err), GP_OK);
	CU_ASSERT_EQUAL(back.unit, GP_FAIL_GPU);
	CU_ASSERT_DOUBLE_EQUAL(back.shape, 2.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(back.mtbf_h, 887.264, 1e-9);
	CU_ASSERT_STRING_EQUAL(back.batch, "old");
	CU_ASSERT_EQUAL(back.failures, 3);
	/* Only a scale: the mean follows from it. */
	fp = fopen(path, "w");
	fputs("failure_model: {unit: node, shape: 2, scale_hours: 100}\n", fp);
	fclose(fp);
	CU_ASSERT_EQUAL_FATAL(gp_fail_model_load(path, &back, &err), GP_OK);
	CU_ASSERT_EQUAL(back.unit, GP_FAIL_NODE);
	CU_ASSERT_DOUBLE_EQUAL(back.mtbf_h, 100 * sqrt(M_PI) / 2, 1e-9);
	fp = fopen(path, "w");
	fputs("failure_model:\n  shape: 2\n  mtbf_hour: 100\n", fp);
	fclose(fp);
	CU_ASSERT_EQUAL(gp_fail_model_load(path, &back, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "mtbf_hour"));
	remove(path);
	gp_sbuf_release(&sb);
}

/* Daly by hand: tau 1 h, delta 2 min, restart 10 min, MTBF 24 h:
 * first order (1 - (600 + 3720/2)/86400) / (1 + 120/3600) = 0.940188;
 * the exponential model agrees to second order. */
static void test_daly(void)
{
	double f = gp_daly_ettr_first_order(3600, 120, 600, 86400);
	double e = gp_daly_ettr_exponential(3600, 120, 600, 86400);

	CU_ASSERT_DOUBLE_EQUAL(f, (1 - 2460.0 / 86400) / (1 + 1 / 30.0), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f, 0.940188, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(e, f, 0.002);
	/* No failures: only the checkpoint cost. */
	CU_ASSERT_DOUBLE_EQUAL(gp_daly_ettr_first_order(3600, 120, 600, 1e30), 30 / 31.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_daly_ettr_exponential(3600, 120, 600, 1e15), 30 / 31.0, 1e-6);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("failures");

	gp_test_add(s, "failure CSV", test_csv_good);
	gp_test_add(s, "failure CSV errors", test_csv_errors);
	gp_test_add(s, "heartbeat detection", test_heartbeat);
	gp_test_add(s, "Weibull mean", test_weibull_mean);
	gp_test_add(s, "generator", test_generator);
	gp_test_add(s, "file and generator merged", test_merge);
	gp_test_add(s, "steady state and new fleets", test_steady_state);
	gp_test_add(s, "Weibull fit with censoring", test_fit);
	gp_test_add(s, "Titan lifetimes", test_titan);
	gp_test_add(s, "failure model file", test_model_file);
	gp_test_add(s, "Daly's checkpoint-restart model", test_daly);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
