#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/util/hostlist.h"
#include "testlib.h"

/* Expand expr and join the names with spaces. */
static char *expand_joined(const char *expr, int *status, gp_error *err)
{
	gp_hostlist h;
	gp_sbuf sb;
	size_t i;

	gp_hostlist_init(&h);
	gp_sbuf_init(&sb);
	*status = gp_hostlist_expand(expr, strlen(expr), &h, "t", 1, 1, err);
	for (i = 0; i < h.n; i++)
		gp_sbuf_addf(&sb, "%s%s", i ? " " : "", h.names[i]);
	gp_hostlist_release(&h);
	return gp_sbuf_detach(&sb);
}

static void check_expand(const char *expr, const char *want)
{
	gp_error err = GP_ERROR_INIT;
	int st;
	char *got = expand_joined(expr, &st, &err);

	CU_ASSERT_EQUAL(st, GP_OK);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want))
		fprintf(stderr, "\n%s -> '%s', want '%s'\n", expr, got, want);
	free(got);
}

static void check_bad(const char *expr, int col)
{
	gp_error err = GP_ERROR_INIT;
	int st;
	char *got = expand_joined(expr, &st, &err);

	CU_ASSERT_EQUAL(st, GP_EINPUT);
	CU_ASSERT_EQUAL(err.col, col);
	if (err.col != col)
		fprintf(stderr, "\n%s: col %d (%s), want %d\n", expr, err.col, err.msg, col);
	CU_ASSERT_STRING_EQUAL(got, "");
	free(got);
}

static void test_expand(void)
{
	check_expand("gpu-[001-003,020]", "gpu-001 gpu-002 gpu-003 gpu-020");
	check_expand("n[9-11]", "n9 n10 n11");
	check_expand("n[08-10]", "n08 n09 n10");
	check_expand("a,b[1-2],c", "a b1 b2 c");
	check_expand("r[1-2]n[1-2]", "r1n1 r1n2 r2n1 r2n2");
	check_expand("node[1-2]-ib", "node1-ib node2-ib");
	check_expand("fb10dl[04-05]", "fb10dl04 fb10dl05");
	check_expand("tux3", "tux3");
	check_expand("c[5]", "c5");
}

static void test_expand_errors(void)
{
	check_bad("gpu-[1-", 5);      /* '[' without ']' */
	check_bad("gpu-[3-1]", 8);    /* backwards, at hi */
	check_bad("a,,b", 3);         /* empty name */
	check_bad("n[1,]", 5);        /* empty item */
	check_bad("n[a]", 3);         /* not a number */
	check_bad("n]1", 2);
	check_bad("n[]", 3);
	check_bad("x[0-9999999]", 2); /* too many names */
	check_bad("x[1-1000000],y", 14); /* the plain name past the cap */
}

static void check_compress(const char *const *names, size_t n, const char *want)
{
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	gp_hostlist_compress(names, n, &sb);
	CU_ASSERT_STRING_EQUAL(sb.buf, want);
	if (strcmp(sb.buf, want))
		fprintf(stderr, "\ngot '%s', want '%s'\n", sb.buf, want);
	gp_sbuf_release(&sb);
}

static void test_compress(void)
{
	const char *a[] = { "gpu-020", "gpu-002", "gpu-001", "gpu-003", "gpu-002" };
	const char *b[] = { "n9", "n10", "n11", "login", "n08" };
	const char *c[] = { "x1-ib", "x2-ib", "x3", "y" };
	const char *d[] = { "only7" };
	const char *e[] = { "n1", "n01", "n2" };

	check_compress(a, 5, "gpu-[001-003,020]");
	check_compress(b, 5, "login,n[08,9-11]");
	check_compress(c, 4, "x3,x[1-2]-ib,y");
	check_compress(d, 1, "only7");
	check_compress(e, 3, "n[1,01,2]");
	check_compress(NULL, 0, "");
}

/* Property: for random sets of names, expanding the compressed form gives
 * the distinct names back, sorted as compress sorts them (checked here
 * independently: same set, no duplicates, and compress is idempotent). */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_roundtrip_random(void)
{
	static const char *prefixes[] = { "gpu-", "n", "rack1-node", "a", "login" };
	static const char *suffixes[] = { "", "", "-ib", ".local" };
	gp_rng r;
	int trial;

	gp_rng_seed(&r, 42);
	for (trial = 0; trial < 400; trial++) {
		size_t n = 1 + gp_rng_below(&r, 60), i, u;
		char **names = gp_xcalloc(n, sizeof(*names));
		char **uniq = gp_xcalloc(n, sizeof(*uniq));
		gp_hostlist h;
		gp_error err = GP_ERROR_INIT;
		gp_sbuf sb, sb2;
		int ok = 1;

		for (i = 0; i < n; i++) {
			const char *p = prefixes[gp_rng_below(&r, 5)];
			const char *s = suffixes[gp_rng_below(&r, 4)];
			int width = (int)gp_rng_below(&r, 4); /* 0: no padding */
			long v = (long)gp_rng_below(&r, 40);

			if (!strcmp(p, "login") && gp_rng_below(&r, 2))
				names[i] = gp_xasprintf("login%s", s);
			else
				names[i] = gp_xasprintf("%s%0*ld%s", p, width, v, s);
		}
		gp_sbuf_init(&sb);
		gp_hostlist_compress((const char *const *)names, n, &sb);
		gp_hostlist_init(&h);
		CU_ASSERT_EQUAL_FATAL(gp_hostlist_expand(sb.buf, sb.len, &h, "t", 1, 1, &err), GP_OK);
		/* same set, no duplicates */
		memcpy(uniq, names, n * sizeof(*names));
		qsort(uniq, n, sizeof(*uniq), cmp_str);
		for (i = u = 0; i < n; i++)
			if (i == 0 || strcmp(uniq[i], uniq[u - 1]))
				uniq[u++] = uniq[i];
		if (h.n != u)
			ok = 0;
		else {
			char **got = gp_xcalloc(u, sizeof(*got));

			memcpy(got, h.names, u * sizeof(*got));
			qsort(got, u, sizeof(*got), cmp_str);
			for (i = 0; i < u; i++)
				if (strcmp(got[i], uniq[i]))
					ok = 0;
			free(got);
		}
		/* idempotent: compressing the expansion gives the same text */
		gp_sbuf_init(&sb2);
		gp_hostlist_compress((const char *const *)h.names, h.n, &sb2);
		if (strcmp(sb.buf, sb2.buf))
			ok = 0;
		CU_ASSERT(ok);
		if (!ok)
			fprintf(stderr, "\nround trip failed: %s vs %s\n", sb.buf, sb2.buf);
		gp_sbuf_release(&sb2);
		gp_sbuf_release(&sb);
		gp_hostlist_release(&h);
		for (i = 0; i < n; i++)
			free(names[i]);
		free(names);
		free(uniq);
	}
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("hostlist");

	gp_test_add(s, "expand", test_expand);
	gp_test_add(s, "expand_errors", test_expand_errors);
	gp_test_add(s, "compress", test_compress);
	gp_test_add(s, "roundtrip_random", test_roundtrip_random);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
