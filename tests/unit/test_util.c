#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuplan/util/heap.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

static void test_parse_long(void)
{
	long v = 7;

	CU_ASSERT_EQUAL(gp_parse_long("42", 0, 100, &v), 0);
	CU_ASSERT_EQUAL(v, 42);
	CU_ASSERT_EQUAL(gp_parse_long("101", 0, 100, &v), -1);
	CU_ASSERT_EQUAL(gp_parse_long("4x", 0, 100, &v), -1);
	CU_ASSERT_EQUAL(gp_parse_long("", 0, 100, &v), -1);
	CU_ASSERT_EQUAL(gp_parse_long(" 4", 0, 100, &v), -1);
	CU_ASSERT_EQUAL(gp_parse_long("99999999999999999999999", 0, 100, &v), -1);
	CU_ASSERT_EQUAL(v, 42);
}

static void test_parse_size(void)
{
	double b;

	CU_ASSERT_EQUAL(gp_parse_size("1GiB", &b), 0);
	CU_ASSERT_DOUBLE_EQUAL(b, 1073741824.0, 0.5);
	CU_ASSERT_EQUAL(gp_parse_size("256MB", &b), 0);
	CU_ASSERT_DOUBLE_EQUAL(b, 256e6, 0.5);
	CU_ASSERT_EQUAL(gp_parse_size("4096", &b), 0);
	CU_ASSERT_DOUBLE_EQUAL(b, 4096, 0.5);
	CU_ASSERT_EQUAL(gp_parse_size("1.5 gb", &b), 0);
	CU_ASSERT_DOUBLE_EQUAL(b, 1.5e9, 0.5);
	CU_ASSERT_EQUAL(gp_parse_size("12 parsecs", &b), -1);
	CU_ASSERT_EQUAL(gp_parse_size("-1", &b), -1);
}

static void test_percentile(void)
{
	double v[] = { 1, 2, 3, 4 };

	CU_ASSERT_DOUBLE_EQUAL(gp_percentile_sorted(v, 4, 50), 2.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_percentile_sorted(v, 4, 0), 1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_percentile_sorted(v, 4, 100), 4, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_percentile_sorted(v, 0, 50), 0, 1e-12);
}

/* Textbook sample: sum 40, mean 5, squared deviations 9+1+1+1+0+0+4+16 =
 * 32, sample variance 32/7. */
static void test_stats(void)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 }, one = 3.5;
	gp_stats s = gp_stats_of(v, 8);

	CU_ASSERT_DOUBLE_EQUAL(s.mean, 5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(s.sd, sqrt(32.0 / 7.0), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(s.min, 2, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.max, 9, 0);
	s = gp_stats_of(&one, 1);
	CU_ASSERT_DOUBLE_EQUAL(s.mean, 3.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.sd, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.min, 3.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.max, 3.5, 0);
}

static void test_ranges(void)
{
	const int v[] = { 0, 1, 2, 3, 8, 10, 11 };
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	gp_sbuf_add_ranges(&sb, v, 7);
	CU_ASSERT_STRING_EQUAL(sb.buf, "0-3,8,10-11");
	sb.len = 0;
	sb.buf[0] = '\0';
	gp_sbuf_add_ranges(&sb, v, 0);
	CU_ASSERT_STRING_EQUAL(sb.buf, "");
	gp_sbuf_add_ranges(&sb, v + 4, 1);
	CU_ASSERT_STRING_EQUAL(sb.buf, "8");
	gp_sbuf_release(&sb);
}

static void test_rng_deterministic(void)
{
	gp_rng a, b;
	int i, same = 1, in_range = 1;

	gp_rng_seed(&a, 42);
	gp_rng_seed(&b, 42);
	for (i = 0; i < 1000; i++) {
		uint64_t x = gp_rng_below(&a, 7);

		if (x != gp_rng_below(&b, 7))
			same = 0;
		if (x >= 7)
			in_range = 0;
	}
	CU_ASSERT(same);
	CU_ASSERT(in_range);
	gp_rng_seed(&b, 43);
	CU_ASSERT_NOT_EQUAL(gp_rng_next(&a), gp_rng_next(&b));
}

/* Seeding draws nothing; each number drawn counts once, whichever way it
 * is asked for; a bound of 1 needs none. */
static void test_rng_draws(void)
{
	gp_rng a;
	uint64_t d0 = gp_rng_draws();

	gp_rng_seed(&a, 5);
	gp_rng_seed_stream(&a, 5, GP_RNG_STREAM_PROBE);
	CU_ASSERT_EQUAL(gp_rng_draws(), d0);
	(void)gp_rng_next(&a);
	(void)gp_rng_double(&a);
	(void)gp_rng_double_open(&a);
	CU_ASSERT_EQUAL(gp_rng_below(&a, 1), 0);
	CU_ASSERT_EQUAL(gp_rng_draws(), d0 + 3);
	gp_rng_note_draw();
	CU_ASSERT_EQUAL(gp_rng_draws(), d0 + 4);
}

static void test_sbuf(void)
{
	gp_sbuf sb;
	int i;

	gp_sbuf_init(&sb);
	for (i = 0; i < 100; i++)
		gp_sbuf_addf(&sb, "%d,", i);
	CU_ASSERT_EQUAL(strncmp(sb.buf, "0,1,2,", 6), 0);
	CU_ASSERT_EQUAL(sb.len, strlen(sb.buf));
	gp_sbuf_release(&sb);
	gp_sbuf_release(NULL);
}

static void test_atomic_abort_leaves_nothing(void)
{
	char dir[] = "/tmp/gptestXXXXXX";
	char *path;
	gp_atomic_file af;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	path = gp_xasprintf("%s/out.txt", dir);
	CU_ASSERT_EQUAL(gp_atomic_open(&af, path, &err), GP_OK);
	fputs("partial", af.fp);
	gp_atomic_abort(&af);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	CU_ASSERT_EQUAL(gp_atomic_open(&af, path, &err), GP_OK);
	fputs("whole", af.fp);
	CU_ASSERT_EQUAL(gp_atomic_commit(&af, &err), GP_OK);
	CU_ASSERT_EQUAL(access(path, F_OK), 0);
	unlink(path);
	rmdir(dir);
	free(path);
}

static void test_error_format(void)
{
	gp_error err = GP_ERROR_INIT;
	char buf[256];

	CU_ASSERT_EQUAL(gp_error_set(&err, GP_EINPUT, "a.yaml", 3, 7, "bad '%s'", "x"), GP_EINPUT);
	CU_ASSERT_STRING_EQUAL(gp_error_format(&err, buf, sizeof(buf)), "a.yaml:3:7: bad 'x'");
	gp_error_clear(&err);
	CU_ASSERT_EQUAL(err.status, GP_OK);
}

/* The radix path (n >= 256): a permutation of -500.5 .. 499.5 comes back
 * in order; infinities at the ends; ties and huge and tiny magnitudes in
 * qsort's order; -0 takes the qsort path and still sorts. */
static void test_sort_doubles(void)
{
	enum { N = 1000 };
	double v[N + 2], w[N + 2];
	size_t i;

	for (i = 0; i < N; i++)
		v[i] = (double)((i * 7919) % N) - 500.5;
	v[N] = INFINITY;
	v[N + 1] = -INFINITY;
	gp_sort_doubles(v, N + 2);
	CU_ASSERT_EQUAL(v[0], -INFINITY);
	CU_ASSERT_EQUAL(v[N + 1], INFINITY);
	for (i = 0; i < N; i++)
		CU_ASSERT_EQUAL(v[i + 1], (double)i - 500.5);
	for (i = 0; i < N + 2; i++)
		v[i] = (i % 3 ? 1e-300 : 1e300) * (double)(i % 17) * (i % 2 ? -1 : 1) + (double)(i % 5);
	memcpy(w, v, sizeof(v));
	gp_sort_doubles(v, N + 2);
	qsort(w, N + 2, sizeof(*w), gp_cmp_double);
	CU_ASSERT_EQUAL(memcmp(v, w, sizeof(v)), 0);
	for (i = 0; i < N; i++)
		v[i] = (double)(N - i);
	v[7] = -0.0;
	gp_sort_doubles(v, N);
	CU_ASSERT_EQUAL(v[0], 0);
	CU_ASSERT_EQUAL(v[1], 1);
	CU_ASSERT_EQUAL(v[N - 1], N);
}

static void test_utf8_seq(void)
{
	CU_ASSERT_EQUAL(gp_utf8_seq("a", 1), 1);
	CU_ASSERT_EQUAL(gp_utf8_seq("\xc3\xa9", 2), 2);                /* é */
	CU_ASSERT_EQUAL(gp_utf8_seq("\xe2\x82\xac", 3), 3);            /* € */
	CU_ASSERT_EQUAL(gp_utf8_seq("\xf0\x9f\x98\x80", 4), 4);        /* U+1F600 */
	CU_ASSERT_EQUAL(gp_utf8_seq("\xe2\x82\xac", 2), 0);            /* cut off */
	CU_ASSERT_EQUAL(gp_utf8_seq("\xc0\xaf", 2), 0);                 /* overlong '/' */
	CU_ASSERT_EQUAL(gp_utf8_seq("\xe0\x80\xaf", 3), 0);            /* overlong */
	CU_ASSERT_EQUAL(gp_utf8_seq("\xed\xa0\x80", 3), 0);            /* surrogate */
	CU_ASSERT_EQUAL(gp_utf8_seq("\xf4\x90\x80\x80", 4), 0);        /* past U+10FFFF */
	CU_ASSERT_EQUAL(gp_utf8_seq("\xff", 1), 0);
	CU_ASSERT_EQUAL(gp_utf8_seq("\x80", 1), 0);                     /* lone continuation */
	CU_ASSERT_EQUAL(gp_utf8_seq("\xc3" "a", 2), 0);
	CU_ASSERT_EQUAL(gp_utf8_seq("", 0), 0);
}

static void test_parse_decimal_only(void)
{
	double d = 7;

	CU_ASSERT_EQUAL(gp_parse_double("0x10", 0, 100, &d), -1);
	CU_ASSERT_EQUAL(gp_parse_double("-0X1p4", -100, 100, &d), -1);
	CU_ASSERT_EQUAL(gp_parse_double("+0x1", 0, 100, &d), -1);
	CU_ASSERT_EQUAL(d, 7);
	CU_ASSERT_EQUAL(gp_parse_double("010", 0, 100, &d), 0);
	CU_ASSERT_EQUAL(d, 10);
	CU_ASSERT_EQUAL(gp_parse_double("0.5e1", 0, 100, &d), 0);
	CU_ASSERT_EQUAL(d, 5);
}

static void test_shell_printable(void)
{
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	gp_sbuf_add_shell(&sb, "node-1:gpu/a@b%c+d=e,f.g_h");
	CU_ASSERT_STRING_EQUAL(sb.buf, "node-1:gpu/a@b%c+d=e,f.g_h");
	sb.len = 0;
	gp_sbuf_add_shell(&sb, "");
	CU_ASSERT_STRING_EQUAL(sb.buf, "''");
	sb.len = 0;
	gp_sbuf_add_shell(&sb, "it's $(x) [0-1]");
	CU_ASSERT_STRING_EQUAL(sb.buf, "'it'\\''s $(x) [0-1]'");
	sb.len = 0;
	/* ESC, DEL, U+0085 (C2 85), a stray 0xff, a backslash; U+00E9 kept */
	gp_sbuf_add_printable(&sb, "a\x1b[2Jb\x7f\xc2\x85\xff\\\xc3\xa9\n");
	CU_ASSERT_STRING_EQUAL(sb.buf, "a\\x1b[2Jb\\x7f\\xc2\\x85\\xff\\\\\xc3\xa9\\x0a");
	gp_sbuf_release(&sb);
}

static void test_edit_distance(void)
{
	char longer[65];

	CU_ASSERT_EQUAL(gp_edit_distance("gpus", "gpus", 0), 0);
	/* a swap of two neighbours is one edit */
	CU_ASSERT_EQUAL(gp_edit_distance("gpsu", "gpus", 0), 1);
	CU_ASSERT_EQUAL(gp_edit_distance("jsno", "json", 0), 1);
	CU_ASSERT_EQUAL(gp_edit_distance("JSno", "json", 1), 1);
	CU_ASSERT_EQUAL(gp_edit_distance("sjon", "json", 0), 1);
	/* two swaps; a swap and a substitution */
	CU_ASSERT_EQUAL(gp_edit_distance("badc", "abcd", 0), 2);
	CU_ASSERT_EQUAL(gp_edit_distance("jsnx", "json", 0), 2);
	/* no character is edited twice: "ca" to "abc" is not a swap then an
	 * insertion between the swapped pair (that would be 2) */
	CU_ASSERT_EQUAL(gp_edit_distance("ca", "abc", 0), 3);
	/* equal neighbours swapped are no edit at all */
	CU_ASSERT_EQUAL(gp_edit_distance("aa", "aa", 0), 0);
	CU_ASSERT_EQUAL(gp_edit_distance("kitten", "sitting", 0), 3);
	CU_ASSERT_EQUAL(gp_edit_distance("", "abc", 0), 3);
	CU_ASSERT_EQUAL(gp_edit_distance("A100", "a100", 0), 1);
	CU_ASSERT_EQUAL(gp_edit_distance("A100", "a100", 1), 0);
	memset(longer, 'x', 64);
	longer[64] = 0;
	CU_ASSERT_EQUAL(gp_edit_distance(longer, "x", 0), 99);
}

/* The heap orders by key; equal keys leave in the order they went in. */
typedef struct hitem {
	int key, tag;
	uint32_t seq;
} hitem;

static int hitem_cmp(const int *flip, const hitem *a, const hitem *b)
{
	return *flip * ((a->key > b->key) - (a->key < b->key));
}
GP_HEAP_DEFINE(test_heap, hitem, const int *, hitem_cmp)

static void test_heap_order(void)
{
	/* keys 3 1 2 1 3 1 with tags 0..5: 1(1) 1(3) 1(5) 2(2) 3(0) 3(4) */
	static const int keys[] = { 3, 1, 2, 1, 3, 1 };
	static const int want[] = { 1, 3, 5, 2, 0, 4 }, want_max[] = { 0, 4, 2, 1, 3, 5 };
	test_heap h = { 0 };
	int i, up = 1, down = -1;

	for (i = 0; i < 6; i++)
		test_heap_push(&h, &up, (hitem){ keys[i], i, 0 });
	for (i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(test_heap_pop(&h, &up).tag, want[i]);
	CU_ASSERT_EQUAL(h.n, 0);
	/* heapify: ties in array order; a max-heap through the context */
	for (i = 0; i < 6; i++)
		test_heap_push(&h, &up, (hitem){ keys[i], i, 0 });
	for (i = 0; i < 6; i++)
		h.v[i] = (hitem){ keys[i], i, 0 };
	test_heap_heapify(&h, &down);
	for (i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(test_heap_pop(&h, &down).tag, want_max[i]);
	test_heap_release(&h);
	CU_ASSERT_PTR_NULL(h.v);
}

static void test_csv_split(void)
{
	char a[] = "x,\"a,\"\"b\"\"\",,z", b[] = " p , \"q\" ,r ", c[] = "\"open,x";
	char d[] = "\"q\"x,y", e[] = "1,2,3";
	char *f[4];
	int col[4], bad = 0;

	CU_ASSERT_EQUAL(gp_csv_split(a, strlen(a), ',', 0, f, col, 4, &bad), 4);
	CU_ASSERT_STRING_EQUAL(f[0], "x");
	CU_ASSERT_STRING_EQUAL(f[1], "a,\"b\"");
	CU_ASSERT_STRING_EQUAL(f[2], "");
	CU_ASSERT_STRING_EQUAL(f[3], "z");
	CU_ASSERT_EQUAL(col[1], 3);
	CU_ASSERT_EQUAL(col[2], 13);
	CU_ASSERT_EQUAL(col[3], 14);
	CU_ASSERT_EQUAL(gp_csv_split(b, strlen(b), ',', GP_CSV_TRIM, f, col, 4, &bad), 3);
	CU_ASSERT_STRING_EQUAL(f[0], "p");
	CU_ASSERT_STRING_EQUAL(f[1], "q");
	CU_ASSERT_STRING_EQUAL(f[2], "r");
	CU_ASSERT_EQUAL(col[1], 6);
	CU_ASSERT_EQUAL(gp_csv_split(c, strlen(c), ',', 0, f, col, 4, &bad), GP_CSV_EUNTERMINATED);
	CU_ASSERT_EQUAL(bad, 1);
	CU_ASSERT_EQUAL(gp_csv_split(d, strlen(d), ',', 0, f, col, 4, &bad), GP_CSV_EAFTER_QUOTE);
	CU_ASSERT_EQUAL(bad, 4);
	CU_ASSERT_EQUAL(gp_csv_split(e, strlen(e), ',', 0, f, col, 2, &bad), GP_CSV_ETOO_MANY);
	CU_ASSERT_EQUAL(bad, 5);
}

static void test_dist(void)
{
	/* 1..10 shuffled: mean 5.5, p50 5.5, p90 9.1, p99 9.91, max 10 */
	double v[] = { 7, 2, 10, 1, 5, 4, 9, 3, 8, 6 };
	gp_dist d;

	gp_dist_of(v, 10, &d);
	CU_ASSERT_DOUBLE_EQUAL(d.mean, 5.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(d.p50, 5.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(d.p90, 9.1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(d.p99, 9.91, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(d.max, 10, 0);
	CU_ASSERT_DOUBLE_EQUAL(v[0], 1, 0);
	gp_dist_of(v, 0, &d);
	CU_ASSERT_DOUBLE_EQUAL(d.max, 0, 0);
}

static void test_rng_double(void)
{
	gp_rng a, b;
	int i, ok = 1;

	/* the top 53 bits: all ones is the largest double below 1 */
	CU_ASSERT_DOUBLE_EQUAL(gp_unit_of_bits(~0ULL), 1.0 - 0x1p-53, 0);
	CU_ASSERT_DOUBLE_EQUAL(gp_unit_of_bits(0), 0.0, 0);
	CU_ASSERT_DOUBLE_EQUAL(gp_unit_open_of_bits(0), 0x1p-54, 0);
	CU_ASSERT_DOUBLE_EQUAL(gp_unit_of_bits(1ULL << 63), 0.5, 0);
	gp_rng_seed(&a, 9);
	gp_rng_seed(&b, 9);
	for (i = 0; i < 1000; i++) {
		double x = gp_rng_double(&a), y = gp_rng_double_open(&b);

		if (!(x >= 0 && x < 1 && y > 0 && y < 1 && y >= x && y - x <= 0x1p-53))
			ok = 0;
	}
	CU_ASSERT(ok);
	/* sub-streams are the seeds they name */
	gp_rng_seed_stream(&a, 9, GP_RNG_STREAM_PROBE);
	gp_rng_seed(&b, 9 ^ GP_RNG_STREAM_PROBE);
	CU_ASSERT_EQUAL(gp_rng_next(&a), gp_rng_next(&b));
	gp_rng_seed_item(&a, 9, 3);
	gp_rng_seed(&b, 9 * 0x9e3779b97f4a7c15ULL + 3);
	CU_ASSERT_EQUAL(gp_rng_next(&a), gp_rng_next(&b));
}

static void test_duration(void)
{
	double v = -1;

	CU_ASSERT_EQUAL(gp_parse_duration("90s", "s", 0, 1e9, &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 90, 0);
	CU_ASSERT_EQUAL(gp_parse_duration("30m", "s", 0, 1e9, &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 1800, 0);
	CU_ASSERT_EQUAL(gp_parse_duration("2h", "s", 0, 1e9, &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 7200, 0);
	CU_ASSERT_EQUAL(gp_parse_duration("1d", "h", 0, 1e9, &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 24, 0);
	CU_ASSERT_EQUAL(gp_parse_duration("90m", "h", 0, 1e9, &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 1.5, 0);
	CU_ASSERT_EQUAL(gp_parse_duration("2.5", "h", 0, 1e9, &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 2.5, 0);
	CU_ASSERT_EQUAL(gp_parse_duration("2h", "s", 0, 3600, &v), -1);
	CU_ASSERT_EQUAL(gp_parse_duration("h", "s", 0, 1e9, &v), -1);
	CU_ASSERT_EQUAL(gp_parse_duration("5x", "s", 0, 1e9, &v), -1);
	CU_ASSERT_EQUAL(gp_parse_duration("-5s", "s", 0, 1e9, &v), -1);
	CU_ASSERT_EQUAL(gp_parse_duration("infs", "s", 0, 1e9, &v), -1);
	CU_ASSERT_EQUAL(gp_parse_duration("", "s", 0, 1e9, &v), -1);
	CU_ASSERT_DOUBLE_EQUAL(v, 2.5, 0);
}

/* Classes of equal values, numbered by first appearance; a hash of
 * value % 2 makes unequal values collide. */
static uint64_t parity(const void *ud, size_t i)
{
	return (uint64_t)((const int *)ud)[i] % 2;
}

static int equal_values(const void *ud, size_t a, size_t b)
{
	return ((const int *)ud)[a] == ((const int *)ud)[b];
}

static void test_number_classes(void)
{
	static const int v[] = { 3, 1, 3, 2, 1, 5 };
	static const int32_t want[] = { 0, 1, 0, 2, 1, 3 };
	int32_t out[6];
	size_t i;

	CU_ASSERT_EQUAL(gp_number_classes(6, parity, equal_values, v, out), 4);
	for (i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(out[i], want[i]);
	CU_ASSERT_EQUAL(gp_number_classes(0, parity, equal_values, v, out), 0);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("util");

	gp_test_add(s, "edit_distance", test_edit_distance);
	gp_test_add(s, "shell word and printable text", test_shell_printable);
	gp_test_add(s, "decimal numbers only", test_parse_decimal_only);
	gp_test_add(s, "parse_long", test_parse_long);
	gp_test_add(s, "parse_size", test_parse_size);
	gp_test_add(s, "percentile", test_percentile);
	gp_test_add(s, "stats", test_stats);
	gp_test_add(s, "sort_doubles", test_sort_doubles);
	gp_test_add(s, "ranges", test_ranges);
	gp_test_add(s, "rng", test_rng_deterministic);
	gp_test_add(s, "rng draws counted", test_rng_draws);
	gp_test_add(s, "rng_double", test_rng_double);
	gp_test_add(s, "heap", test_heap_order);
	gp_test_add(s, "csv_split", test_csv_split);
	gp_test_add(s, "dist", test_dist);
	gp_test_add(s, "duration", test_duration);
	gp_test_add(s, "sbuf", test_sbuf);
	gp_test_add(s, "atomic", test_atomic_abort_leaves_nothing);
	gp_test_add(s, "error_format", test_error_format);
	gp_test_add(s, "utf8_seq", test_utf8_seq);
	gp_test_add(s, "number_classes", test_number_classes);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
