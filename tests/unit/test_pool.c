/* gp_pool (strings and records stored together, interned on request) and
 * the job record's out-of-line parts built on it (gp_job.more, pooled
 * strings of a job list). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/job.h"
#include "gpuplan/util/pool.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

static void test_strdup_copies(void)
{
	gp_pool *p = gp_pool_new();
	char *a = gp_pool_strdup(p, "j1"), *b = gp_pool_strdup(p, "j1");
	char *c = gp_pool_strndup(p, "abcdef", 3);

	CU_ASSERT_STRING_EQUAL(a, "j1");
	CU_ASSERT_PTR_NOT_EQUAL(a, b);      /* not interned */
	CU_ASSERT_STRING_EQUAL(c, "abc");
	CU_ASSERT_EQUAL(gp_pool_interned(p), 0);
	gp_pool_free(p);
	gp_pool_free(NULL);
}

static void test_intern_shares(void)
{
	gp_pool *p = gp_pool_new();
	char buf[8] = "vc-a";
	char *a = gp_pool_intern(p, "vc-a"), *b = gp_pool_intern(p, buf), *c = gp_pool_intern(p, "vc-b");
	char *e = gp_pool_intern(p, "");

	CU_ASSERT_PTR_EQUAL(a, b);
	CU_ASSERT_PTR_NOT_EQUAL(a, buf);
	CU_ASSERT_PTR_NOT_EQUAL(a, c);
	CU_ASSERT_STRING_EQUAL(c, "vc-b");
	CU_ASSERT_STRING_EQUAL(e, "");
	CU_ASSERT_PTR_EQUAL(e, gp_pool_intern(p, ""));
	CU_ASSERT_EQUAL(gp_pool_interned(p), 3);
	gp_pool_free(p);
}

typedef struct rec {
	double x;
	int k[3];
	int pad;
} rec;

static void test_intern_records(void)
{
	gp_pool *p = gp_pool_new();
	rec r1, r2;
	const rec *a, *b, *c;
	const char *s;

	memset(&r1, 0, sizeof(r1));
	r1.x = 1.5;
	r1.k[1] = 7;
	r2 = r1;
	a = gp_pool_intern_mem(p, &r1, sizeof(r1));
	b = gp_pool_intern_mem(p, &r2, sizeof(r2));
	CU_ASSERT_PTR_EQUAL(a, b);
	CU_ASSERT_EQUAL((uintptr_t)a % sizeof(double), 0);
	CU_ASSERT_DOUBLE_EQUAL(a->x, 1.5, 0);
	CU_ASSERT_EQUAL(a->k[1], 7);
	r2.k[2] = 1;
	c = gp_pool_intern_mem(p, &r2, sizeof(r2));
	CU_ASSERT_PTR_NOT_EQUAL(a, c);
	CU_ASSERT_EQUAL(c->k[2], 1);
	/* A string and a record of the same bytes are different values. */
	s = gp_pool_intern(p, "abc");
	CU_ASSERT_PTR_NOT_EQUAL(gp_pool_intern_mem(p, "abc", 3), s);
	CU_ASSERT_EQUAL(gp_pool_interned(p), 4);
	gp_pool_free(p);
}

/* Far more than one block: every value stays where it was put, and a
 * pool of n short ids costs a few bytes each, not a heap chunk each. */
static void test_many(void)
{
	enum { N = 200000 };
	gp_pool *p = gp_pool_new();
	char **ids = gp_xmalloc(N * sizeof(*ids)), want[24];
	char *users[3];
	size_t i, bad = 0;

	for (i = 0; i < N; i++) {
		snprintf(want, sizeof(want), "j%zu", i);
		ids[i] = gp_pool_strdup(p, want);
	}
	for (i = 0; i < 3 * N; i++) {
		snprintf(want, sizeof(want), "user%zu", i % 3);
		if (i < 3)
			users[i] = gp_pool_intern(p, want);
		else if (gp_pool_intern(p, want) != users[i % 3])
			bad++;
	}
	for (i = 0; i < N; i++) {
		snprintf(want, sizeof(want), "j%zu", i);
		if (strcmp(ids[i], want))
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(gp_pool_interned(p), 3);
#if defined(__SANITIZE_ADDRESS__)
#define POOL_EXACT 1   /* one allocation per piece under ASan (pool.c) */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) /* clang before 16 has no __SANITIZE_ADDRESS__ */
#define POOL_EXACT 1
#endif
#endif
#ifndef POOL_EXACT
	/* ids "j0".."j199999" take 1,288,890 bytes with their NULs; the pool
	 * adds at most its largest block (1 MiB) half used and a small
	 * table, where a heap chunk each would take 200,000 x 32 bytes */
	CU_ASSERT(gp_pool_bytes(p) < 1288890 + 1200000);
#endif
	free(ids);
	gp_pool_free(p);
}

static void test_job_more(void)
{
	gp_job a, b;
	const gp_job_more *none;
	gp_job_more *m;

	gp_job_init(&a);
	gp_job_init(&b);
	none = a.more;
	CU_ASSERT_PTR_NOT_NULL_FATAL(none);
	CU_ASSERT_PTR_EQUAL(a.more, b.more);            /* shared when empty */
	CU_ASSERT_EQUAL(none->model.name[0], '\0');
	CU_ASSERT_DOUBLE_EQUAL(none->deadline, 0, 0);
	m = gp_job_more_edit(&a);
	CU_ASSERT_PTR_NOT_EQUAL(m, none);
	CU_ASSERT_PTR_EQUAL(gp_job_more_edit(&a), m);   /* once */
	m->deadline = 600;
	CU_ASSERT_DOUBLE_EQUAL(a.more->deadline, 600, 0);
	CU_ASSERT_DOUBLE_EQUAL(b.more->deadline, 0, 0);
	CU_ASSERT_TRUE(a.own & GP_JOB_OWN_MORE);
	gp_job_release(&a);                             /* frees m (ASan) */
	CU_ASSERT_PTR_EQUAL(a.more, none);
	gp_job_release(&b);
}

/* gp_joblist_pool_job: equal environments and `more` records become one
 * copy in the list's pool; ids are copied; the job frees nothing. */
static void test_pool_job(void)
{
	gp_joblist l;
	gp_job *j;
	int i;

	gp_joblist_init(&l);
	for (i = 0; i < 3; i++) {
		char id[8];

		j = gp_joblist_push(&l);
		snprintf(id, sizeof(id), "n%d", i);
		j->id = gp_xstrdup(id);
		j->environment = gp_xstrdup(i < 2 ? "team-a" : "team-b");
		if (i < 2)
			snprintf(gp_job_more_edit(j)->model.name, sizeof(j->more->model.name), "resnet50");
		gp_joblist_pool_job(&l, j);
	}
	CU_ASSERT_EQUAL(l.jobs[0].own, 0);
	CU_ASSERT_STRING_EQUAL(l.jobs[1].id, "n1");
	CU_ASSERT_PTR_EQUAL(l.jobs[0].environment, l.jobs[1].environment);
	CU_ASSERT_STRING_EQUAL(l.jobs[2].environment, "team-b");
	CU_ASSERT_PTR_EQUAL(l.jobs[0].more, l.jobs[1].more);
	CU_ASSERT_STRING_EQUAL(l.jobs[1].more->model.name, "resnet50");
	CU_ASSERT_EQUAL(l.jobs[2].more->model.name[0], '\0');
	CU_ASSERT_PTR_NULL(l.jobs[2].gpu_models);
	gp_joblist_release(&l);                         /* no leak, no double free */
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("pool");

	gp_test_add(s, "strdup_copies", test_strdup_copies);
	gp_test_add(s, "intern_shares", test_intern_shares);
	gp_test_add(s, "intern_records", test_intern_records);
	gp_test_add(s, "many", test_many);
	gp_test_add(s, "job_more", test_job_more);
	gp_test_add(s, "pool_job", test_pool_job);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
