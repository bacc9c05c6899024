/* The what-if database's schema: files of the first schema are read and
 * brought to the current one, merge aligns columns by name, a file of a
 * newer schema is refused with a message saying so. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuplan/util/util.h"
#include "gpuplan/run/metrics.h"
#include "gpuplan/whatif/spec.h"
#include "gpuplan/whatif/store.h"
#include "gpuplan/whatif/sweep.h"
#include "testlib.h"

#define GRID "tests/data/whatif/grid.yaml"

static void sql(const char *path, const char *text)
{
	sqlite3 *db = NULL;
	char *msg = NULL;

	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db, text, NULL, NULL, &msg) != SQLITE_OK)
		fprintf(stderr, "%s: %s\n", path, msg ? msg : "?");
	CU_ASSERT_PTR_NULL(msg);
	sqlite3_free(msg);
	sqlite3_close(db);
}

/* The first value of a query as text ("" for NULL or no row). */
static void query(const char *path, const char *text, char *out, size_t size)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *q = NULL;

	out[0] = 0;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &db), SQLITE_OK);
	CU_ASSERT_EQUAL_FATAL(sqlite3_prepare_v2(db, text, -1, &q, NULL), SQLITE_OK);
	if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0))
		snprintf(out, size, "%s", (const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	sqlite3_close(db);
}

/* The key of configuration cfg of the grid, quoted for SQL (no quotes in it). */
static char *key_of(const gp_whatif_spec *s, size_t cfg)
{
	gp_whatif_config c;
	char *k;

	gp_whatif_config_of(s, cfg, &c);
	k = gp_whatif_config_key(s, &c);
	CU_ASSERT_PTR_NULL(strchr(k, '\''));
	return k;
}

static void test_schema_and_merge_by_name(void)
{
	gp_whatif_spec s;
	gp_whatif_store *db = NULL;
	gp_whatif_results rs;
	gp_error err = GP_ERROR_INIT;
	char dir[] = "/tmp/gp-whatif-schema-XXXXXX", old[256], perm[256], all[256], newer[256];
	char text[4096], got[128], trace[512], *k5, *k0;
	gp_whatif_config c0;
	const gp_whatif_result *r;
	size_t found, other, added, dup;

	gp_whatif_spec_init(&s);
	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(GRID, &s, &err), GP_OK);
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(old, sizeof(old), "%s/old.sqlite", dir);
	snprintf(perm, sizeof(perm), "%s/perm.sqlite", dir);
	snprintf(all, sizeof(all), "%s/all.sqlite", dir);
	snprintf(newer, sizeof(newer), "%s/newer.sqlite", dir);
	/* Configuration 5 is add_nodes 8, ib-hdr, backfill (test_whatif.c);
	 * 0 is add_nodes 0, ib-hdr, fifo. */
	k5 = key_of(&s, 5);
	k0 = key_of(&s, 0);
	gp_whatif_config_of(&s, 0, &c0);
	gp_whatif_value(&s, &c0, GP_AX_TRACE, trace, sizeof(trace));

	/* A file of schema 1 as the first schema wrote it: its fixed columns
	 * in their order and, as an older gpuplan, only some metrics. */
	snprintf(text, sizeof(text),
		 "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
		 "INSERT INTO meta VALUES ('schema', '1');"
		 "CREATE TABLE runs (fingerprint TEXT NOT NULL, config TEXT NOT NULL, "
		 "seed INTEGER NOT NULL, trace TEXT, add_nodes INTEGER, remove_nodes INTEGER, "
		 "fabric TEXT, queue TEXT, policy TEXT, mtbf_node REAL, recovery TEXT, "
		 "nodes INTEGER, gpus INTEGER, cost REAL, scale_durations TEXT, "
		 "gpuplan_version TEXT, spec TEXT, completed INTEGER, queue_delay_mean REAL, "
		 "PRIMARY KEY (fingerprint, config, seed));"
		 "INSERT INTO runs VALUES ('fp', '%s', 1, '%s', 8, NULL, "
		 "'ib-hdr', 'backfill', 'bestfit', NULL, NULL, 42, 300, 7.5, NULL, 'old', "
		 "'grid.yaml', 7, 123.5);",
		 k5, trace);
	sql(old, text);
	/* A file with the columns in another order and an axis column this
	 * gpuplan's spec does not have. */
	snprintf(text, sizeof(text),
		 "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
		 "INSERT INTO meta VALUES ('schema', '2');"
		 "CREATE TABLE runs (\"quota.a\" NUMERIC, queue_delay_mean REAL, seed INTEGER NOT NULL, "
		 "config TEXT NOT NULL, fingerprint TEXT NOT NULL, gpus INTEGER, nodes INTEGER, "
		 "policy TEXT, queue TEXT, fabric TEXT, add_nodes INTEGER, trace TEXT, "
		 "PRIMARY KEY (fingerprint, config, seed));"
		 "INSERT INTO runs VALUES (16, 99.25, 2, '%s', 'fp', 300, 42, 'bestfit', 'fifo', "
		 "'ib-hdr', 0, '%s');",
		 k0, trace);
	sql(perm, text);

	/* Merged by name into a new database. */
	CU_ASSERT_EQUAL_FATAL(gp_whatif_store_open(all, &db, &err), GP_OK);
	CU_ASSERT_EQUAL(gp_whatif_store_merge(db, old, &added, &dup, &err), GP_OK);
	CU_ASSERT_EQUAL(added, 1);
	CU_ASSERT_EQUAL(gp_whatif_store_merge(db, perm, &added, &dup, &err), GP_OK);
	CU_ASSERT_EQUAL(added, 1);
	CU_ASSERT_EQUAL(gp_whatif_store_merge(db, perm, &added, &dup, &err), GP_OK);
	CU_ASSERT_EQUAL(added, 0);
	CU_ASSERT_EQUAL(dup, 1);
	gp_whatif_results_init(&rs, &s);
	CU_ASSERT_EQUAL(gp_whatif_store_load(db, &s, "fp", &rs, &found, &other, &err), GP_OK);
	CU_ASSERT_EQUAL(found, 2);
	CU_ASSERT_EQUAL(other, 0);
	/* run = configuration x 2 seeds + the seed's index (seeds [1, 2]) */
	r = gp_whatif_results_get(&rs, 5 * 2 + 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_DOUBLE_EQUAL(r->m[GP_M_QD_MEAN], 123.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(r->m[GP_M_COMPLETED], 7, 0);
	CU_ASSERT_EQUAL(r->nodes, 42);
	CU_ASSERT_EQUAL(r->gpus, 300);
	r = gp_whatif_results_get(&rs, 0 * 2 + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_DOUBLE_EQUAL(r->m[GP_M_QD_MEAN], 99.25, 0);
	CU_ASSERT_EQUAL(r->nodes, 42);
	gp_whatif_results_release(&rs);
	CU_ASSERT_EQUAL(gp_whatif_store_close(db, &err), GP_OK);
	/* The axis column came along, under its name, in the right row. */
	query(all, "SELECT \"quota.a\" FROM runs WHERE seed = 2", got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "16");
	query(all, "SELECT count(*) FROM runs WHERE \"quota.a\" IS NULL", got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "1");
	query(all, "SELECT gpuplan_version FROM runs WHERE seed = 1", got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "old");
	query(all, "SELECT value FROM meta WHERE key = 'schema'", got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "2");

	/* The schema-1 file opened itself: read, and brought to schema 2
	 * with the metrics it lacked (NULL in its row). */
	CU_ASSERT_EQUAL_FATAL(gp_whatif_store_open(old, &db, &err), GP_OK);
	gp_whatif_results_init(&rs, &s);
	CU_ASSERT_EQUAL(gp_whatif_store_load(db, &s, "fp", &rs, &found, &other, &err), GP_OK);
	CU_ASSERT_EQUAL(found, 1);
	r = gp_whatif_results_get(&rs, 5 * 2 + 0);
	CU_ASSERT_PTR_NOT_NULL(r);
	gp_whatif_results_release(&rs);
	CU_ASSERT_EQUAL(gp_whatif_store_close(db, &err), GP_OK);
	query(old, "SELECT value FROM meta WHERE key = 'schema'", got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "2");
	query(old, "SELECT count(*) FROM runs WHERE queue_delay_p90 IS NULL", got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "1");

	/* A newer schema: refused, opened or merged, and left as it was. */
	sql(newer, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
		   "INSERT INTO meta VALUES ('schema', '3');"
		   "CREATE TABLE runs (fingerprint TEXT, config TEXT, seed INTEGER);");
	CU_ASSERT_EQUAL(gp_whatif_store_open(newer, &db, &err), GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "schema 3, written by a newer gpuplan"));
	CU_ASSERT_EQUAL_FATAL(gp_whatif_store_open(all, &db, &err), GP_OK);
	CU_ASSERT_EQUAL(gp_whatif_store_merge(db, newer, &added, &dup, &err), GP_EINPUT);
	CU_ASSERT_STRING_EQUAL(err.file, newer);
	/* A table without the key's columns is no what-if database. */
	sql(perm, "DROP TABLE runs; CREATE TABLE runs (fingerprint TEXT, seed INTEGER);");
	CU_ASSERT_EQUAL(gp_whatif_store_merge(db, perm, &added, &dup, &err), GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no column 'config'"));
	CU_ASSERT_EQUAL(gp_whatif_store_close(db, &err), GP_OK);
	query(newer, "SELECT value FROM meta WHERE key = 'schema'", got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "3");

	free(k5);
	free(k0);
	unlink(old);
	unlink(perm);
	unlink(all);
	unlink(newer);
	rmdir(dir);
	gp_whatif_spec_release(&s);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("whatif-store");

	gp_test_add(s, "schema 1 read and upgraded, merge by column name", test_schema_and_merge_by_name);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
