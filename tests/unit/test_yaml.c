#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "gpuplan/util/util.h"
#include "gpuplan/io/yaml.h"
#include "testlib.h"

static int parse(const char *text, gp_yaml_doc *doc, gp_error *err)
{
	return gp_yaml_parse(text, strlen(text), "t.yaml", 0, doc, err);
}

static void test_tree_and_positions(void)
{
	gp_yaml_doc doc;
	gp_error err = GP_ERROR_INIT;
	const gp_yaml_node *nodes, *first;
	long count = 0;

	CU_ASSERT_EQUAL_FATAL(parse("fabric:\n  - {name: spine}\nnodes:\n  - name: a\n    count: 4\n", &doc, &err), GP_OK);
	nodes = gp_yaml_get(doc.root, "nodes");
	CU_ASSERT_PTR_NOT_NULL_FATAL(nodes);
	CU_ASSERT_EQUAL(nodes->type, GP_YAML_SEQ);
	CU_ASSERT_EQUAL(nodes->n, 1);
	first = nodes->items[0];
	CU_ASSERT_EQUAL(first->line, 4);
	CU_ASSERT_EQUAL(first->col, 5);
	CU_ASSERT_EQUAL(gp_yaml_long(&doc, gp_yaml_get(first, "count"), "count", 1, 10, &count, &err), GP_OK);
	CU_ASSERT_EQUAL(count, 4);
	CU_ASSERT_EQUAL(gp_yaml_long(&doc, gp_yaml_get(first, "count"), "count", 5, 10, &count, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 5);
	CU_ASSERT_EQUAL(err.col, 12);
	gp_yaml_doc_release(&doc);
}

static void test_duplicate_key(void)
{
	gp_yaml_doc doc;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL(parse("a: 1\nb: 2\na: 3\n", &doc, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT_EQUAL(err.col, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "duplicate key 'a'"));
	CU_ASSERT_PTR_NULL(doc.root);
	gp_yaml_doc_release(&doc);
	/* A duplicate key whose value is a collection must not leak or double free. */
	CU_ASSERT_EQUAL(parse("a: [1]\na: [2]\n", &doc, &err), GP_EINPUT);
	gp_yaml_doc_release(&doc);
}

/* Big maps use a hash index for the duplicate check: every key is still
 * found, in nested maps too, and the first occurrence is reported. */
static void test_duplicate_key_indexed(void)
{
	gp_sbuf sb;
	gp_yaml_doc doc;
	gp_error err = GP_ERROR_INIT;
	int i;

	gp_sbuf_init(&sb);
	for (i = 0; i < 5000; i++)
		gp_sbuf_addf(&sb, "k%d: {a: 1, b: 2}\n", i);
	CU_ASSERT_EQUAL(gp_yaml_parse(sb.buf, sb.len, "big.yaml", 0, &doc, &err), GP_OK);
	CU_ASSERT_EQUAL(doc.root->n, 5000);
	CU_ASSERT_PTR_NOT_NULL(gp_yaml_get(doc.root, "k4999"));
	gp_yaml_doc_release(&doc);
	gp_sbuf_adds(&sb, "k1234: 0\n");
	CU_ASSERT_EQUAL(gp_yaml_parse(sb.buf, sb.len, "big.yaml", 0, &doc, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 5001);
	CU_ASSERT_STRING_EQUAL(err.msg, "duplicate key 'k1234' (first at line 1235)");
	gp_yaml_doc_release(&doc);
	sb.len = 0;
	gp_sbuf_adds(&sb, "outer:\n");
	for (i = 0; i < 20; i++)
		gp_sbuf_addf(&sb, "  i%d: %d\n", i, i);
	gp_sbuf_adds(&sb, "  i3: again\n");
	CU_ASSERT_EQUAL(gp_yaml_parse(sb.buf, sb.len, "nested.yaml", 0, &doc, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 22);
	CU_ASSERT_STRING_EQUAL(err.msg, "duplicate key 'i3' (first at line 5)");
	gp_yaml_doc_release(&doc);
	gp_sbuf_release(&sb);
}

static int seen_types[8], nseen;

static int collect(void *ud, const gp_yaml_doc *doc, const gp_yaml_node *item, size_t index,
		   gp_error *err)
{
	(void)ud;
	if (index != (size_t)nseen || nseen >= 8)
		return gp_yaml_error(doc, item, err, "out of order");
	seen_types[nseen++] = item->type;
	if (item->type == GP_YAML_SCALAR && !strcmp(item->scalar, "stop"))
		return gp_yaml_error(doc, item, err, "stopped at %zu", index);
	return GP_OK;
}

/* Streaming: the items of one root list go to the callback as they
 * complete and are not kept; a callback error stops the parse. */
static void test_stream(void)
{
	const char *text = "a: 1\nitems:\n  - {x: 1}\n  - 2\n  - [3, 4]\nb: {items: [5]}\n";
	gp_yaml_doc doc;
	gp_error err = GP_ERROR_INIT;
	const gp_yaml_node *items;

	nseen = 0;
	CU_ASSERT_EQUAL(gp_yaml_parse_stream(text, strlen(text), "s.yaml", 0, "items", collect, NULL,
					     &doc, &err), GP_OK);
	CU_ASSERT_EQUAL(nseen, 3);
	CU_ASSERT_EQUAL(seen_types[0], GP_YAML_MAP);
	CU_ASSERT_EQUAL(seen_types[1], GP_YAML_SCALAR);
	CU_ASSERT_EQUAL(seen_types[2], GP_YAML_SEQ);
	items = gp_yaml_get(doc.root, "items");
	CU_ASSERT_PTR_NOT_NULL_FATAL(items);
	CU_ASSERT_EQUAL(items->type, GP_YAML_SEQ);
	CU_ASSERT_EQUAL(items->n, 0);
	/* a nested `items` is an ordinary list */
	CU_ASSERT_EQUAL(gp_yaml_get(gp_yaml_get(doc.root, "b"), "items")->n, 1);
	gp_yaml_doc_release(&doc);
	nseen = 0;
	text = "items: [1, stop, 3]\n";
	CU_ASSERT_EQUAL(gp_yaml_parse_stream(text, strlen(text), "s.yaml", 0, "items", collect, NULL,
					     &doc, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(nseen, 2);
	CU_ASSERT_STRING_EQUAL(err.msg, "stopped at 1");
	CU_ASSERT_EQUAL(err.line, 1);
	CU_ASSERT_EQUAL(err.col, 12);
	CU_ASSERT_PTR_NULL(doc.root);
	gp_yaml_doc_release(&doc);
}

static size_t big_seen;

static int check_big(void *ud, const gp_yaml_doc *doc, const gp_yaml_node *item, size_t index,
		     gp_error *err)
{
	char want[64];
	const gp_yaml_node *v = gp_yaml_get(item, "name");

	(void)ud;
	snprintf(want, sizeof(want), "item-%zu-with-a-longer-name-%zu", index, index * 7);
	if (index != big_seen++ || !v || v->type != GP_YAML_SCALAR || strcmp(v->scalar, want) ||
	    v->line != (unsigned)index + 3)
		return gp_yaml_error(doc, item, err, "item %zu wrong", index);
	return GP_OK;
}

/* Storage of streamed items is reused (many items, crossing storage
 * blocks): what was stored before and after the list stays intact, and
 * positions and texts of each item are right. */
static void test_stream_storage(void)
{
	gp_sbuf sb;
	gp_yaml_doc doc;
	gp_error err = GP_ERROR_INIT;
	const gp_yaml_node *a, *z;
	size_t i;

	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "a: {k: [1, 2, 3], s: before}\nitems:\n");
	for (i = 0; i < 20000; i++)
		gp_sbuf_addf(&sb, "  - {name: item-%zu-with-a-longer-name-%zu, gpus: [0, 1, 2, 3]}\n",
			     i, i * 7);
	gp_sbuf_adds(&sb, "z: {s: after, list: [x, y]}\n");
	big_seen = 0;
	CU_ASSERT_EQUAL_FATAL(gp_yaml_parse_stream(sb.buf, sb.len, "big.yaml", 0, "items",
						   check_big, NULL, &doc, &err), GP_OK);
	CU_ASSERT_EQUAL(big_seen, 20000);
	a = gp_yaml_get(doc.root, "a");
	z = gp_yaml_get(doc.root, "z");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(z);
	CU_ASSERT_STRING_EQUAL(gp_yaml_get(a, "s")->scalar, "before");
	CU_ASSERT_EQUAL(gp_yaml_get(a, "k")->n, 3);
	CU_ASSERT_STRING_EQUAL(gp_yaml_get(a, "k")->items[2]->scalar, "3");
	CU_ASSERT_STRING_EQUAL(gp_yaml_get(z, "s")->scalar, "after");
	CU_ASSERT_EQUAL(z->line, 20003);
	CU_ASSERT_STRING_EQUAL(gp_yaml_get(z, "list")->items[1]->scalar, "y");
	CU_ASSERT_EQUAL(doc.root->n, 3);
	gp_yaml_doc_release(&doc);
	gp_sbuf_release(&sb);
}

static void test_depth_cap(void)
{
	gp_yaml_doc doc;
	gp_error err = GP_ERROR_INIT;
	char *deep = gp_xmalloc(3000 * 2 + 1);
	int i;

	for (i = 0; i < 3000; i++) {
		deep[i] = '[';
		deep[3000 + i] = ']';
	}
	deep[6000] = '\0';
	CU_ASSERT_EQUAL(parse(deep, &doc, &err), GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "nesting deeper than 64"));
	CU_ASSERT_EQUAL(err.line, 1);
	CU_ASSERT_EQUAL(err.col, 65);
	gp_yaml_doc_release(&doc);
	free(deep);
}

static void test_syntax_and_junk(void)
{
	gp_yaml_doc doc;
	gp_error err = GP_ERROR_INIT;
	static const char junk[] = "a: \x01\x02\x03";

	CU_ASSERT_EQUAL(parse("a: [1, 2\nb: 3\n", &doc, &err), GP_EINPUT);
	CU_ASSERT(err.line >= 1);
	gp_yaml_doc_release(&doc);
	CU_ASSERT_EQUAL(gp_yaml_parse("a: 1\nbc\0d", 9, "t.yaml", 0, &doc, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 2);
	CU_ASSERT_EQUAL(err.col, 3);
	gp_yaml_doc_release(&doc);
	CU_ASSERT_EQUAL(parse(junk, &doc, &err), GP_EINPUT);
	gp_yaml_doc_release(&doc);
	CU_ASSERT_EQUAL(parse("a: &x 1\nb: *x\n", &doc, &err), GP_EINPUT);
	gp_yaml_doc_release(&doc);
	CU_ASSERT_EQUAL(parse("", &doc, &err), GP_OK);
	CU_ASSERT_PTR_NULL(doc.root);
	gp_yaml_doc_release(&doc);
}

static void test_check_keys(void)
{
	static const char *const allowed[] = { "name", "type", "switch", NULL };
	gp_yaml_doc doc;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL_FATAL(parse("name: a\ntyep: x\n", &doc, &err), GP_OK);
	CU_ASSERT_EQUAL(gp_yaml_check_keys(&doc, doc.root, "node", allowed, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 2);
	CU_ASSERT_STRING_EQUAL(err.msg, "unknown key 'tyep' in node (did you mean 'type'?)");
	gp_yaml_doc_release(&doc);
}

static void test_quoted_numbers_are_strings(void)
{
	gp_yaml_doc doc;
	gp_error err = GP_ERROR_INIT;
	long v;
	int b;

	CU_ASSERT_EQUAL_FATAL(parse("a: \"12\"\nb: yes\n", &doc, &err), GP_OK);
	CU_ASSERT_EQUAL(gp_yaml_long(&doc, gp_yaml_get(doc.root, "a"), "a", 0, 100, &v, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(gp_yaml_bool(&doc, gp_yaml_get(doc.root, "b"), "b", &b, &err), GP_OK);
	CU_ASSERT_EQUAL(b, 1);
	gp_yaml_doc_release(&doc);
}

static char keyed_log[256];

static int keyed(void *ud, const gp_yaml_doc *doc, const char *key, const gp_yaml_node *item,
		 size_t index, gp_error *err)
{
	size_t n = strlen(keyed_log);

	(void)ud;
	(void)doc;
	(void)err;
	snprintf(keyed_log + n, sizeof(keyed_log) - n, "%s%zu@%u ", key, index, item->line);
	return GP_OK;
}

/* Several streamed root lists, told apart by key; a text that starts at
 * line 5 of its file reports the file's lines. */
static void test_streams(void)
{
	const char *text = "a: [1]\nb:\n  - x\n  - y\nc: {b: [z]}\nd: [w]\n";
	const char *const keys[] = { "b", "d", NULL };
	gp_yaml_doc doc;
	gp_error err = GP_ERROR_INIT;

	keyed_log[0] = '\0';
	CU_ASSERT_EQUAL(gp_yaml_parse_streams(text, strlen(text), "m.yaml", 0, 1, keys, keyed,
					      NULL, &doc, &err), GP_OK);
	CU_ASSERT_STRING_EQUAL(keyed_log, "b0@3 b1@4 d0@6 ");
	CU_ASSERT_EQUAL(gp_yaml_get(doc.root, "a")->n, 1);
	CU_ASSERT_EQUAL(gp_yaml_get(gp_yaml_get(doc.root, "c"), "b")->n, 1);
	gp_yaml_doc_release(&doc);
	keyed_log[0] = '\0';
	CU_ASSERT_EQUAL_FATAL(gp_yaml_parse_streams(text + 22, strlen(text + 22), "m.yaml", 0, 5,
						    keys, keyed, NULL, &doc, &err), GP_OK);
	CU_ASSERT_STRING_EQUAL(keyed_log, "d0@6 ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(gp_yaml_get(doc.root, "c"));
	CU_ASSERT_EQUAL(gp_yaml_get(doc.root, "c")->line, 5);
	gp_yaml_doc_release(&doc);
	text = "d: [1, {a: 1, a: 2}]\n";
	CU_ASSERT_EQUAL(gp_yaml_parse_streams(text, strlen(text), "m.yaml", 0, 10, keys, keyed,
					      NULL, &doc, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 10);
	CU_ASSERT_EQUAL(err.col, 15);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "duplicate key 'a'"));
	gp_yaml_doc_release(&doc);
}

static void test_put_scalar(void)
{
	static const char *const cases[][2] = {
		{ "mlx5_0", "mlx5_0" }, { "eth-1.2", "eth-1.2" }, { "null", "\"null\"" },
		{ "Yes", "\"Yes\"" }, { "0x1f", "\"0x1f\"" }, { "a b", "\"a b\"" },
		{ "", "\"\"" }, { "m\xab" "x", "\"m\\xabx\"" }, { "n\xc2\x97", "\"n\\x97\"" },
	};
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(cases); i++) {
		gp_sbuf sb;

		gp_sbuf_init(&sb);
		gp_yaml_put_scalar(&sb, cases[i][0]);
		CU_ASSERT_STRING_EQUAL(sb.buf ? sb.buf : "", cases[i][1]);
		gp_sbuf_release(&sb);
	}
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("yaml");

	gp_test_add(s, "tree_and_positions", test_tree_and_positions);
	gp_test_add(s, "duplicate_key", test_duplicate_key);
	gp_test_add(s, "duplicate_key_indexed", test_duplicate_key_indexed);
	gp_test_add(s, "stream", test_stream);
	gp_test_add(s, "streams", test_streams);
	gp_test_add(s, "stream_storage", test_stream_storage);
	gp_test_add(s, "depth_cap", test_depth_cap);
	gp_test_add(s, "syntax_and_junk", test_syntax_and_junk);
	gp_test_add(s, "check_keys", test_check_keys);
	gp_test_add(s, "quoted_numbers", test_quoted_numbers_are_strings);
	gp_test_add(s, "put_scalar", test_put_scalar);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
