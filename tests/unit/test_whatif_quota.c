/* What-if axes over tenants' quotas and weights, and the tenant SLO
 * (whatif/quota.h), on hand-worked cases. */
#include <math.h>
#include <sqlite3.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/run/metrics.h"
#include "gpuplan/util/util.h"
#include "gpuplan/whatif/quota.h"
#include "gpuplan/whatif/spec.h"
#include "gpuplan/whatif/store.h"
#include "gpuplan/whatif/sweep.h"
#include "testlib.h"

#define SPLIT "tests/data/whatif/quota-split.yaml"

static void collect(void *ud, size_t run, const gp_whatif_result *res)
{
	gp_whatif_results_put(ud, run, res);
}

/* Every run of s in this process into rs. */
static void run_all(const gp_whatif_spec *s, gp_whatif_results *rs)
{
	gp_error err = GP_ERROR_INIT;
	volatile sig_atomic_t stop = 0;
	gp_whatif_pool *pool = gp_whatif_pool_new(s, 1, &err);
	size_t *runs = gp_xmalloc(s->nruns * sizeof(size_t)), i;
	int stopped = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(pool);
	for (i = 0; i < s->nruns; i++)
		runs[i] = i;
	gp_whatif_results_init(rs, s);
	CU_ASSERT_EQUAL(gp_whatif_pool_run(pool, runs, s->nruns, collect, rs, &stop, &stopped, &err),
			GP_OK);
	if (err.status)
		fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
	gp_whatif_pool_free(pool);
	free(runs);
}

/* Split 8 GPUs (tests/data/sim/small-cluster.yaml: two nodes of 4) between
 * a and b in steps of 2, at least 2 each: (2, 6), (4, 4), (6, 2).  Six
 * 2-GPU jobs of 100 s arrive at 0, three per team; no cohort, so a team
 * runs quota / 2 jobs at a time and fifo-skip lets the other team's jobs
 * pass.  A team with 2 GPUs runs its three one after another (waits 0,
 * 100, 200 s), with 4 GPUs two then one (0, 0, 100), with 6 all three
 * (0, 0, 0).  p90 of three waits interpolates at rank 0.9 x 2 = 1.8:
 * 100 + 0.8 x 100 = 180 s, 0 + 0.8 x 100 = 80 s, 0.  So a=2: a 180 s, b
 * 0; a=4: 80 and 80; a=6: 0 and b 180.  Under 150 s for every tenant:
 * only a=4, b=4.  Mean queue delay over the six jobs: 300 / 6 = 50 s, 200
 * / 6, 50 s. */
static void test_split_by_hand(void)
{
	gp_whatif_spec s;
	gp_whatif_results rs;
	gp_whatif_config c;
	gp_error err = GP_ERROR_INIT;
	gp_cluster base;
	const gp_whatif_result *r;
	static const double want[3][2] = { { 180, 0 }, { 80, 80 }, { 0, 180 } };
	static const double qd_mean[3] = { 50, 200.0 / 6, 50 };
	char buf[64], *key;
	size_t i;
	double q;

	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(SPLIT, &s, &err), GP_OK);
	CU_ASSERT_TRUE(s.have_tenants);
	CU_ASSERT_EQUAL(s.tenants.n, 2);
	CU_ASSERT_EQUAL(s.ntaxes, 1);
	CU_ASSERT_EQUAL(s.taxes[0].kind, GP_WT_SPLIT);
	CU_ASSERT_EQUAL(s.nvalues[GP_AX_TENANTS], 3);
	CU_ASSERT_EQUAL(s.nconfigs, 3);
	CU_ASSERT_TRUE(s.tslo_on);
	CU_ASSERT_EQUAL(s.tslo_metric, GP_M_QD_P90);
	CU_ASSERT_DOUBLE_EQUAL(s.tslo_bound[0], 150, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.tslo_bound[1], 150, 0);
	CU_ASSERT_TRUE(gp_whatif_has_slo(&s));
	CU_ASSERT_EQUAL(gp_whatif_ncolumns(&s), 2);
	{
		int numeric;

		CU_ASSERT_STRING_EQUAL(gp_whatif_column_name(&s, 0, &numeric, buf, sizeof(buf)), "quota.a");
		CU_ASSERT_TRUE(numeric);
		CU_ASSERT_STRING_EQUAL(gp_whatif_column_name(&s, 1, &numeric, buf, sizeof(buf)), "quota.b");
	}
	for (i = 0; i < 3; i++) {
		double x;

		gp_whatif_config_of(&s, i, &c);
		CU_ASSERT_EQUAL(gp_whatif_column_value(&s, 0, &c, &x, buf, sizeof(buf)), 1);
		CU_ASSERT_DOUBLE_EQUAL(x, 2.0 + 2 * (double)i, 0);
		CU_ASSERT_EQUAL(gp_whatif_column_value(&s, 1, &c, &x, buf, sizeof(buf)), 1);
		CU_ASSERT_DOUBLE_EQUAL(x, 6.0 - 2 * (double)i, 0);
		/* the key names the quotas and finds its value back */
		key = gp_whatif_config_key(&s, &c);
		snprintf(buf, sizeof(buf), ";quota.a=%zu;quota.b=%zu", 2 + 2 * i, 6 - 2 * i);
		CU_ASSERT_PTR_NOT_NULL(strstr(key, buf));
		CU_ASSERT_EQUAL(gp_whatif_key_find(&s, GP_AX_TENANTS, key), (long)i);
		free(key);
	}
	gp_whatif_value(&s, &c, GP_AX_TENANTS, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "quota.a=6 quota.b=2");

	run_all(&s, &rs);
	for (i = 0; i < 3; i++) {
		r = gp_whatif_results_get(&rs, i);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		CU_ASSERT_DOUBLE_EQUAL(r->tenant[0], want[i][0], 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(r->tenant[1], want[i][1], 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(r->m[GP_M_QD_MEAN], qd_mean[i], 1e-9);
		CU_ASSERT_EQUAL(r->m[GP_M_COMPLETED], 6);
		CU_ASSERT_EQUAL(gp_whatif_meets_run(&s, r), i == 1);
	}
	/* the tenant that misses: a at a=2, b at a=6 */
	CU_ASSERT_EQUAL(gp_whatif_quota_worst(&s, gp_whatif_results_get(&rs, 0), &q), 0);
	CU_ASSERT_DOUBLE_EQUAL(q, 180.0 / 150, 1e-12);
	CU_ASSERT_EQUAL(gp_whatif_quota_worst(&s, gp_whatif_results_get(&rs, 2), &q), 1);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_load(s.cluster, &base, &err), GP_OK);
	CU_ASSERT_EQUAL(gp_whatif_best(&rs, &base), 1);
	gp_cluster_release(&base);
	gp_whatif_results_release(&rs);
	gp_whatif_spec_release(&s);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/* 512 GPUs among four teams in steps of 64, at least 64 each: 8 steps, 4
 * at the minimum, 4 to place among 4 tenants: C(4 + 3, 3) = 35 ways, in
 * lexicographic order of (a, b, c); quota and weight axes cross with it,
 * the first written varying slowest. */
static void test_split_enumeration_and_cross(void)
{
	char dir[] = "/tmp/gp-whatif-quota-XXXXXX", spec[256], ten[256], text[2048];
	gp_whatif_spec s;
	gp_error err = GP_ERROR_INIT;
	gp_tenants t;
	size_t i, k;

	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(ten, sizeof(ten), "%s/teams.yaml", dir);
	snprintf(spec, sizeof(spec), "%s/spec.yaml", dir);
	write_file(ten, "tenants:\n"
			"  - {name: a, quota: {gpus: 128}, cohort: all}\n"
			"  - {name: b, quota: {gpus: 128}, cohort: all}\n"
			"  - {name: c, quota: {gpus: 128}, cohort: all}\n"
			"  - {name: d, quota: {gpus: 128}, cohort: all}\n"
			"  - {name: e, quota: {gpus: 8, A100-SXM4-40GB: 8}}\n");
	snprintf(text, sizeof(text),
		 "cluster: %s/tests/data/sim/small-cluster.yaml\n"
		 "trace: %s/tests/data/tenants/split-teams.csv\n"
		 "tenants: teams.yaml\n"
		 "axes:\n"
		 "  weight.e: [1, 4]\n"
		 "  split: {total: 512, tenants: [a, b, c, d], step: 64, min: 64}\n"
		 "  quota.e.A100-SXM4-40GB: 0..16/8\n"
		 "slo:\n"
		 "  tenant_max_wait: {a: 30m, '*': 2h}\n",
		 gp_test_path("."), gp_test_path("."));
	write_file(spec, text);
	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(spec, &s, &err), GP_OK);
	CU_ASSERT_EQUAL(s.ntaxes, 3);
	CU_ASSERT_EQUAL(s.taxes[1].n, 35);
	CU_ASSERT_EQUAL(s.taxes[2].n, 3);
	CU_ASSERT_EQUAL(s.nvalues[GP_AX_TENANTS], 2 * 35 * 3);
	CU_ASSERT_EQUAL(s.tslo_metric, GP_M_QD_MAX);
	CU_ASSERT_DOUBLE_EQUAL(s.tslo_bound[0], 1800, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.tslo_bound[3], 7200, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.tslo_bound[4], 7200, 0);
	/* rows: (64, 64, 64, 320) first, (320, 64, 64, 64) last, each
	 * adding up to 512, each after the one before */
	for (i = 0; i < 35; i++) {
		const double *row = &s.taxes[1].values[i * 4];

		CU_ASSERT_DOUBLE_EQUAL(row[0] + row[1] + row[2] + row[3], 512, 0);
		for (k = 0; k < 4; k++)
			CU_ASSERT_TRUE(row[k] >= 64 && fmod(row[k], 64) == 0);
		if (i) {
			const double *prev = row - 4;

			for (k = 0; k < 3 && row[k] == prev[k]; k++)
				;
			CU_ASSERT_TRUE(k < 3 && row[k] > prev[k]);
		}
	}
	CU_ASSERT_DOUBLE_EQUAL(s.taxes[1].values[3], 320, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.taxes[1].values[34 * 4], 320, 0);
	/* 1 column for weight.e, 4 for the split, 1 for e's A100 quota */
	CU_ASSERT_EQUAL(gp_whatif_ncolumns(&s), 6);
	{
		char b[64];
		int numeric;

		CU_ASSERT_STRING_EQUAL(gp_whatif_column_name(&s, 0, &numeric, b, sizeof(b)), "weight.e");
		CU_ASSERT_STRING_EQUAL(gp_whatif_column_name(&s, 4, &numeric, b, sizeof(b)), "quota.d");
		CU_ASSERT_STRING_EQUAL(gp_whatif_column_name(&s, 5, &numeric, b, sizeof(b)),
				       "quota.e.A100-SXM4-40GB");
	}
	/* value 1 x 105 + 2 x 3 + 2: weight 4, split row 2 (64, 64, 192,
	 * 192), e's A100 quota 16; set in a copy of the tenants */
	t = s.tenants;
	t.t = gp_xmalloc(t.n * sizeof(gp_tenant));
	memcpy(t.t, s.tenants.t, t.n * sizeof(gp_tenant));
	gp_whatif_quota_apply(&s, 105 + 6 + 2, &t);
	CU_ASSERT_DOUBLE_EQUAL(t.t[4].weight, 4, 0);
	CU_ASSERT_EQUAL(t.t[0].nominal[0], 64 * GP_MILLI);
	CU_ASSERT_EQUAL(t.t[2].nominal[0], 192 * GP_MILLI);
	CU_ASSERT_EQUAL(t.t[3].nominal[0], 192 * GP_MILLI);
	CU_ASSERT_EQUAL(t.t[4].nominal[1], 16 * GP_MILLI);
	CU_ASSERT_EQUAL(t.t[4].nominal[0], 8 * GP_MILLI);   /* its gpus key untouched */
	CU_ASSERT_DOUBLE_EQUAL(s.tenants.t[4].weight, 1, 0); /* the spec's unchanged */
	free(t.t);
	gp_whatif_spec_release(&s);
	unlink(spec);
	unlink(ten);
	rmdir(dir);
}

/* Runs with tenant columns stored and read back by name. */
static void test_store_columns(void)
{
	char dir[] = "/tmp/gp-whatif-quota-db-XXXXXX", path[256];
	gp_whatif_spec s;
	gp_whatif_results rs, back;
	gp_whatif_store *db;
	gp_error err = GP_ERROR_INIT;
	size_t i, found, other;
	sqlite3 *h;
	sqlite3_stmt *q;

	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/q.sqlite", dir);
	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(SPLIT, &s, &err), GP_OK);
	run_all(&s, &rs);
	CU_ASSERT_EQUAL_FATAL(gp_whatif_store_open(path, &db, &err), GP_OK);
	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(gp_whatif_store_put(db, &s, "fp", "test", i, gp_whatif_results_get(&rs, i),
						    2, &err), GP_OK);
	gp_whatif_results_init(&back, &s);
	CU_ASSERT_EQUAL(gp_whatif_store_load(db, &s, "fp", &back, &found, &other, &err), GP_OK);
	CU_ASSERT_EQUAL(found, 3);
	for (i = 0; i < 3; i++) {
		const gp_whatif_result *a = gp_whatif_results_get(&rs, i), *b = gp_whatif_results_get(&back, i);

		CU_ASSERT_PTR_NOT_NULL_FATAL(b);
		CU_ASSERT_DOUBLE_EQUAL(a->tenant[0], b->tenant[0], 0);
		CU_ASSERT_DOUBLE_EQUAL(a->tenant[1], b->tenant[1], 0);
	}
	CU_ASSERT_EQUAL(gp_whatif_store_close(db, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &h), SQLITE_OK);
	CU_ASSERT_EQUAL_FATAL(sqlite3_prepare_v2(h, "SELECT \"quota.a\", \"quota.b\", "
						    "\"tenant.a.queue_delay_p90\" FROM runs ORDER BY 1",
						 -1, &q, NULL), SQLITE_OK);
	for (i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL(sqlite3_step(q), SQLITE_ROW);
		CU_ASSERT_EQUAL(sqlite3_column_int(q, 0), 2 + 2 * (int)i);
		CU_ASSERT_EQUAL(sqlite3_column_int(q, 1), 6 - 2 * (int)i);
		CU_ASSERT_DOUBLE_EQUAL(sqlite3_column_double(q, 2), i == 0 ? 180 : i == 1 ? 80 : 0, 1e-9);
	}
	sqlite3_finalize(q);
	sqlite3_close(h);
	gp_whatif_results_release(&back);
	gp_whatif_results_release(&rs);
	gp_whatif_spec_release(&s);
	unlink(path);
	rmdir(dir);
}

#define QSEARCH "tests/data/whatif/quota-search.yaml"

/* The search plan of a spec along d: every round's probes run in this
 * process, per_line points a line; *probes gets the values probed along
 * d in order (at most 16). */
static size_t search_all(const gp_whatif_spec *s, const gp_whatif_dim *d, size_t per_line,
			 gp_whatif_results *rs, size_t *probes)
{
	gp_error err = GP_ERROR_INIT;
	gp_whatif_runner *r = gp_whatif_runner_new(s, &err);
	gp_whatif_search se;
	size_t nlines = gp_whatif_dim_lines(s, d), line[64], idx[64], got, k, n = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	gp_whatif_results_init(rs, s);
	gp_whatif_search_init(&se, nlines, d->n, gp_whatif_dim_up(s, d));
	while ((got = gp_whatif_search_next(&se, per_line, 64, line, idx)) > 0) {
		for (k = 0; k < got; k++) {
			size_t cfg = gp_whatif_dim_config(s, d, line[k], idx[k]);
			gp_whatif_result res;

			CU_ASSERT_EQUAL_FATAL(gp_whatif_runner_run(r, cfg * s->nseeds, &res, &err), GP_OK);
			gp_whatif_results_put(rs, cfg * s->nseeds, &res);
			if (n < 16)
				probes[n++] = idx[k];
		}
		for (k = 0; k < got; k++)
			gp_whatif_search_set(&se, line[k], idx[k],
					     gp_whatif_meets_all(rs, gp_whatif_dim_config(s, d, line[k],
											  idx[k])) == 1);
	}
	for (k = 0; k < nlines; k++)
		CU_ASSERT_EQUAL(gp_whatif_search_answer(&se, k), 4);
	gp_whatif_search_release(&se);
	gp_whatif_runner_free(r);
	return n;
}

/* The smallest quota for team a (quota.a: 0..8) that keeps a's p90
 * queue delay at most 150 s; b keeps its 4 GPUs.  The jobs of
 * tests/data/tenants/split-teams.csv (three 2-GPU jobs of 100 s per team,
 * all at 0, a's first) under fifo-skip on 8 GPUs, by hand:
 *   a's quota 0 or 1: no job of a fits it; b runs b1, b2 at 0 and b3 at
 *     100 (its 4 GPUs): a has no figure (never ran), b waits 0, 0, 100;
 *   2 or 3: a runs one at a time (0, 100, 200), b as above;
 *   4 or 5: a1, a2 and b1, b2 fill the 8 GPUs; a3 and b3 at 100: both
 *     wait 0, 0, 100;
 *   6, 7 or 8: a1..a3 take 6 GPUs and b1 the other 2; b2, b3 at 100: a
 *     waits 0, 0, 0 and b 0, 100, 100.
 * p90 of three waits is at rank 1.8: a 180 s (2, 3), 80 s (4, 5), 0 (6 and
 * up); b 80 s up to 5, 100 s from 6.  a's bound is met from 4 GPUs on,
 * monotone; a bound of 90 s on both tenants only at 4 and 5, since more
 * quota for a raises b's p90: no bisection for that SLO.
 * Bisection over the nine values, one probe a round: (-1, 9) -> index 4
 * (meets), (-1, 4) -> 1 (fails), (1, 4) -> 2, (2, 4) -> 3 (fail): the
 * answer 4, with 3 just under it run and failing.  Two probes a round:
 * (-1, 9) -> 2 and 5, (2, 5) -> 3 and 4. */
static void test_quota_search_by_hand(void)
{
	static const double a_p90[9] = { INFINITY, INFINITY, 180, 180, 80, 80, 0, 0, 0 };
	static const double b_p90[9] = { 80, 80, 80, 80, 80, 80, 100, 100, 100 };
	static const size_t one[] = { 4, 1, 2, 3 }, two[] = { 2, 5, 3, 4 };
	gp_whatif_spec s;
	gp_whatif_results rs;
	gp_whatif_dim d;
	gp_error err = GP_ERROR_INIT;
	gp_cluster base;
	size_t probes[16], n, i;
	long below;

	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(QSEARCH, &s, &err), GP_OK);
	CU_ASSERT_EQUAL(s.nconfigs, 9);
	CU_ASSERT_DOUBLE_EQUAL(s.tslo_bound[0], 150, 0);
	CU_ASSERT_TRUE(s.tslo_bound[1] < 0);
	CU_ASSERT_EQUAL_FATAL(gp_whatif_search_pick(&s, &d, &err), GP_OK);
	CU_ASSERT_EQUAL(d.axis, GP_AX_TENANTS);
	CU_ASSERT_EQUAL(d.taxis, 0);
	CU_ASSERT_EQUAL(d.n, 9);
	CU_ASSERT_EQUAL(d.stride, 1);
	CU_ASSERT_STRING_EQUAL(gp_whatif_dim_name(&s, &d), "quota.a");
	CU_ASSERT_TRUE(gp_whatif_dim_up(&s, &d));
	CU_ASSERT_EQUAL(gp_whatif_dim_lines(&s, &d), 1);

	/* the whole grid: each tenant's figure as worked out above */
	run_all(&s, &rs);
	for (i = 0; i < 9; i++) {
		const gp_whatif_result *r = gp_whatif_results_get(&rs, i);

		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		if (isinf(a_p90[i])) {
			CU_ASSERT_TRUE(isinf(r->tenant[0]));
		} else {
			CU_ASSERT_DOUBLE_EQUAL(r->tenant[0], a_p90[i], 1e-9);
		}
		CU_ASSERT_DOUBLE_EQUAL(r->tenant[1], b_p90[i], 1e-9);
		CU_ASSERT_EQUAL(gp_whatif_meets_run(&s, r), i >= 4);
	}
	CU_ASSERT_EQUAL_FATAL(gp_cluster_load(s.cluster, &base, &err), GP_OK);
	/* the grid's answer keeps its rule (equal costs: the most headroom,
	 * a's 0 s at 6); a search's is the smallest quota */
	CU_ASSERT_EQUAL(gp_whatif_best(&rs, &base), 6);
	CU_ASSERT_EQUAL(gp_whatif_best_along(&rs, &base, &d), 4);
	gp_whatif_results_release(&rs);

	n = search_all(&s, &d, 1, &rs, probes);
	CU_ASSERT_EQUAL(n, 4);
	for (i = 0; i < 4 && i < n; i++)
		CU_ASSERT_EQUAL(probes[i], one[i]);
	CU_ASSERT_EQUAL(gp_whatif_best_along(&rs, &base, &d), 4);
	CU_ASSERT_EQUAL(gp_whatif_search_verify(&rs, &d, 4, &below), 1);
	CU_ASSERT_EQUAL(below, 3);
	/* only the probed values ran */
	CU_ASSERT_PTR_NULL(gp_whatif_results_get(&rs, 0));
	CU_ASSERT_PTR_NULL(gp_whatif_results_get(&rs, 5));
	gp_whatif_results_release(&rs);
	n = search_all(&s, &d, 2, &rs, probes);
	CU_ASSERT_EQUAL(n, 4);
	for (i = 0; i < 4 && i < n; i++)
		CU_ASSERT_EQUAL(probes[i], two[i]);
	CU_ASSERT_EQUAL(gp_whatif_best_along(&rs, &base, &d), 4);
	gp_whatif_results_release(&rs);
	gp_cluster_release(&base);
	gp_whatif_spec_release(&s);
}

/* A second quota axis after the searched one makes lines: quota.a then
 * quota.b: [2, 4], so a's values step by 2 in the tenants axis.  With b at
 * 2 GPUs b runs one job at a time, which changes nothing for a: a's
 * answer is 4 in both lines.  A bound on both tenants or on every job is
 * refused at the SLO (at the axis without a tenant SLO); a bound on b alone
 * searches quota.b. */
static void test_quota_search_lines_and_refusals(void)
{
	char dir[] = "/tmp/gp-whatif-qsearch-XXXXXX", spec[256], text[2048];
	static const char *const slo[] = {
		"slo:\n  tenant_p90_wait: 90s\n",
		"slo:\n  tenant_p90_wait: {b: 90s}\n",
		"slo: {metric: queue_delay.p90, max: 1h, tenant_p90_wait: {a: 150s}}\n",
		"slo: {metric: queue_delay.p90, max: 1h}\n",
	};
	static const int at[] = { 9, 9, 8, 6 };
	gp_whatif_spec s;
	gp_whatif_dim d;
	gp_whatif_results rs;
	gp_error err = GP_ERROR_INIT;
	size_t probes[16], l, i;
	char *root = realpath(gp_test_path("."), NULL);

	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(spec, sizeof(spec), "%s/spec.yaml", dir);
	snprintf(text, sizeof(text),
		 "cluster: %s/tests/data/sim/small-cluster.yaml\n"
		 "trace: %s/tests/data/tenants/split-teams.csv\n"
		 "tenants: %s/tests/data/tenants/split-teams.yaml\n"
		 "queue: fifo-skip\n"
		 "axes:\n"
		 "  quota.a: 0..8\n"
		 "  quota.b: [2, 4]\n"
		 "slo:\n"
		 "  tenant_p90_wait: {a: 150s}\n", root, root, root);
	write_file(spec, text);
	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(spec, &s, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_whatif_search_pick(&s, &d, &err), GP_OK);
	CU_ASSERT_EQUAL(d.taxis, 0);
	CU_ASSERT_EQUAL(d.stride, 2);
	CU_ASSERT_EQUAL(gp_whatif_dim_lines(&s, &d), 2);
	for (l = 0; l < 2; l++)
		for (i = 0; i < 9; i++) {
			gp_whatif_config c;
			size_t cfg = gp_whatif_dim_config(&s, &d, l, i);

			CU_ASSERT_EQUAL(gp_whatif_dim_index(&s, &d, cfg), i);
			gp_whatif_config_of(&s, cfg, &c);
			CU_ASSERT_DOUBLE_EQUAL(gp_whatif_quota_column_value(&s, 0, c.v[GP_AX_TENANTS]),
					       (double)i, 0);
			CU_ASSERT_DOUBLE_EQUAL(gp_whatif_quota_column_value(&s, 1, c.v[GP_AX_TENANTS]),
					       l ? 4 : 2, 0);
		}
	search_all(&s, &d, 1, &rs, probes);
	gp_whatif_results_release(&rs);
	gp_whatif_spec_release(&s);

	for (i = 0; i < GP_ARRAY_SIZE(slo); i++) {
		char *cut;

		cut = strstr(text, "slo:");
		snprintf(cut, sizeof(text) - (size_t)(cut - text), "%s", slo[i]);
		write_file(spec, text);
		err = (gp_error)GP_ERROR_INIT;
		CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(spec, &s, &err), GP_OK);
		if (i == 1) {
			/* b alone: b's own quota axis is searched */
			CU_ASSERT_EQUAL(gp_whatif_search_pick(&s, &d, &err), GP_OK);
			CU_ASSERT_EQUAL(d.taxis, 1);
			CU_ASSERT_EQUAL(d.stride, 1);
			CU_ASSERT_EQUAL(d.n, 2);
			gp_whatif_spec_release(&s);
			continue;
		}
		CU_ASSERT_EQUAL(gp_whatif_search_pick(&s, &d, &err), GP_EINPUT);
		/* at the tenant SLO's key, else at the axis */
		CU_ASSERT_EQUAL(err.line, at[i]);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "quota.a"));
		gp_whatif_spec_release(&s);
	}
	unlink(spec);
	rmdir(dir);
	free(root);
}

/* The weight axis under queue fairshare, worked out by hand from the
 * man page's formula (Fair share): priority = fs = 2^(-U / S), U the
 * tenant's share of the decayed GPU usage, S its weight over the sum of
 * weights.  On the 8 GPUs of tests/data/sim/small-cluster.yaml, all at 0:
 * a0 (a, 4 GPUs, 600 s), a1 (a, 2 GPUs, 600 s), b0 (b, 2 GPUs, 600 s),
 * then a2 and b2 (8 GPUs, 100 s each).  At 0 nobody has used anything
 * (every factor 1): arrival order, a0, a1 and b0 start and fill the
 * cluster.  They run side by side until 600, so at every recomputation a
 * holds 6 of the 8 GPU-seconds used and b 2, decayed alike: U_a = 3/4,
 * U_b = 1/4.  At 600 a2 and b2 both wait for all 8 GPUs:
 *   weight.a 1: S 1/2, 1/2: fs_a = 2^-1.5 = 0.354 < fs_b = 2^-0.5 = 0.707;
 *   weight.a 2: S 2/3, 1/3: fs_a = 2^-1.125 = 0.459 < fs_b = 2^-0.75 = 0.595;
 *   weight.a 4: S 4/5, 1/5: fs_a = 2^-0.9375 = 0.522 > fs_b = 2^-1.25 = 0.420
 * (the order turns at weight 3, where 0.75 / S_a = 0.25 / S_b).  The
 * first starts at 600, the other at 700: a's longest wait is 700, 700,
 * 600 s and b's 600, 600, 700 s; a bound of 650 s on a's is met at 4. */
static void test_fairshare_weight_by_hand(void)
{
	char dir[] = "/tmp/gp-whatif-fs-XXXXXX", path[256], text[2048];
	static const double a_max[3] = { 700, 700, 600 }, b_max[3] = { 600, 600, 700 };
	gp_whatif_spec s;
	gp_whatif_results rs;
	gp_error err = GP_ERROR_INIT;
	char *root = realpath(gp_test_path("."), NULL);
	size_t i;

	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/fs.csv", dir);
	write_file(path, "id,submit,gpus,duration,tenant\n"
			 "a0,0,4,600,a\n"
			 "a1,0,2,600,a\n"
			 "b0,0,2,600,b\n"
			 "a2,0,8,100,a\n"
			 "b2,0,8,100,b\n");
	snprintf(path, sizeof(path), "%s/teams.yaml", dir);
	write_file(path, "tenants:\n"
			 "  - {name: a, quota: {gpus: 8}}\n"
			 "  - {name: b, quota: {gpus: 8}}\n");
	snprintf(text, sizeof(text),
		 "cluster: %s/tests/data/sim/small-cluster.yaml\n"
		 "trace: fs.csv\n"
		 "tenants: teams.yaml\n"
		 "queue: fairshare\n"
		 "axes:\n"
		 "  weight.a: [1, 2, 4]\n"
		 "slo:\n"
		 "  tenant_max_wait: {a: 650s}\n", root);
	snprintf(path, sizeof(path), "%s/spec.yaml", dir);
	write_file(path, text);
	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(path, &s, &err), GP_OK);
	CU_ASSERT_EQUAL(s.nconfigs, 3);
	CU_ASSERT_EQUAL(s.taxes[0].kind, GP_WT_WEIGHT);
	run_all(&s, &rs);
	for (i = 0; i < 3; i++) {
		const gp_whatif_result *r = gp_whatif_results_get(&rs, i);

		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		CU_ASSERT_DOUBLE_EQUAL(r->tenant[0], a_max[i], 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(r->tenant[1], b_max[i], 1e-9);
		CU_ASSERT_EQUAL(gp_whatif_meets_run(&s, r), i == 2);
		/* every job done, the last at 700 + 100 */
		CU_ASSERT_EQUAL(r->m[GP_M_COMPLETED], 5);
		CU_ASSERT_DOUBLE_EQUAL(r->m[GP_M_MAKESPAN], 800, 1e-9);
	}
	gp_whatif_results_release(&rs);
	gp_whatif_spec_release(&s);
	unlink(path);
	snprintf(path, sizeof(path), "%s/teams.yaml", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/fs.csv", dir);
	unlink(path);
	rmdir(dir);
	free(root);
}

/* Why a tenant may have no job done, from its quota at a value of the
 * tenants axis (quota-search.yaml: a's quota 0..8, no cohort; b keeps
 * 4): a at 0 has no quota and no cohort (1: never started), at 1 or more
 * it has quota (0); b always has its 4 GPUs. */
static void test_quota_none(void)
{
	gp_whatif_spec s;
	gp_error err = GP_ERROR_INIT;
	size_t v;

	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(QSEARCH, &s, &err), GP_OK);
	CU_ASSERT_EQUAL(gp_whatif_quota_none(&s, 0, 0), 1);
	for (v = 1; v < 9; v++)
		CU_ASSERT_EQUAL(gp_whatif_quota_none(&s, v, 0), 0);
	for (v = 0; v < 9; v++)
		CU_ASSERT_EQUAL(gp_whatif_quota_none(&s, v, 1), 0);
	/* in a cohort with no quota it could only borrow (2) */
	s.tenants.t[0].cohort = 0;
	CU_ASSERT_EQUAL(gp_whatif_quota_none(&s, 0, 0), 2);
	s.tenants.t[0].borrow_limit = 0;
	CU_ASSERT_EQUAL(gp_whatif_quota_none(&s, 0, 0), 1);
	s.tenants.t[0].cohort = -1;
	gp_whatif_spec_release(&s);
}

static void register_tests(void)
{
	CU_pSuite su = gp_test_suite("whatif-quota");

	gp_test_add(su, "a split of 8 GPUs, worked out by hand", test_split_by_hand);
	gp_test_add(su, "a split of 512 GPUs among four, crossed", test_split_enumeration_and_cross);
	gp_test_add(su, "tenant columns in the database", test_store_columns);
	gp_test_add(su, "search along a quota, worked out by hand", test_quota_search_by_hand);
	gp_test_add(su, "quota search: lines, and the SLOs it refuses",
		    test_quota_search_lines_and_refusals);
	gp_test_add(su, "why a tenant has no job done", test_quota_none);
	gp_test_add(su, "the weight axis under fairshare, worked out by hand",
		    test_fairshare_weight_by_hand);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
