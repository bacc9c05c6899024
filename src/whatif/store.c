/* SQLite store of what-if runs (store.h). */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpuplan/sim/failsim.h"
#include "gpuplan/util/util.h"
#include "gpuplan/whatif/store.h"

struct gp_whatif_store {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *ins;
};

/* Several sweeps may write one database: each write is a short
 * transaction of its own (a run's row, never a simulation), taken with
 * BEGIN IMMEDIATE so that two writers never deadlock on upgrading a read
 * lock (SQLite then answers BUSY at once, without waiting); each attempt
 * waits BUSY_MS for the lock, and a busy database is tried again
 * BUSY_TRIES times before the sweep gives up. */
#define BUSY_MS 10000
#define BUSY_TRIES 6

/* The fixed columns before the metrics. */
static const char *const fixed_cols =
	"fingerprint TEXT NOT NULL, config TEXT NOT NULL, seed INTEGER NOT NULL, "
	"trace TEXT, add_nodes INTEGER, remove_nodes INTEGER, fabric TEXT, queue TEXT, "
	"policy TEXT, mtbf_node REAL, recovery TEXT, nodes INTEGER, gpus INTEGER, cost REAL, "
	"scale_durations TEXT, gpuplan_version TEXT, spec TEXT";
#define NFIXED 17

static int db_err(gp_whatif_store *st, gp_error *err, const char *what)
{
	return gp_error_set(err, GP_EIO, st->path, 0, 0, "%s: %s", what, sqlite3_errmsg(st->db));
}

static int exec(gp_whatif_store *st, const char *sql, gp_error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int r = gp_error_set(err, GP_EIO, st->path, 0, 0, "%s", msg ? msg : "sqlite error");

		sqlite3_free(msg);
		return r;
	}
	return GP_OK;
}

static int is_busy(int rc)
{
	return (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
}

static int busy_fail(gp_whatif_store *st, gp_error *err)
{
	return gp_error_set(err, GP_EIO, st->path, 0, 0,
			    "the database stayed locked by another writer for %d s",
			    BUSY_MS / 1000 * BUSY_TRIES);
}

/* BEGIN IMMEDIATE: the write lock, or BUSY after every try. */
static int begin_write(gp_whatif_store *st, gp_error *err)
{
	int i, rc = SQLITE_OK;

	for (i = 0; i < BUSY_TRIES; i++) {
		rc = sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			return GP_OK;
		if ((rc & 0xff) == SQLITE_NOTADB)
			return gp_error_set(err, GP_EINPUT, st->path, 0, 0, "not a what-if database: %s",
					    sqlite3_errmsg(st->db));
		if (!is_busy(rc))
			return db_err(st, err, "starting a write");
	}
	return busy_fail(st, err);
}

/* COMMIT (waiting out readers), or ROLLBACK and an error. */
static int commit_write(gp_whatif_store *st, gp_error *err)
{
	int i, rc = SQLITE_OK;

	for (i = 0; i < BUSY_TRIES; i++) {
		rc = sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			return GP_OK;
		if (!is_busy(rc))
			break;
	}
	rc = is_busy(rc) ? busy_fail(st, err) : db_err(st, err, "committing");
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* One statement in a write transaction of its own. */
static int exec_write(gp_whatif_store *st, const char *sql, gp_error *err)
{
	int rc;

	if ((rc = begin_write(st, err)))
		return rc;
	if ((rc = exec(st, sql, err))) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return commit_write(st, err);
}

static char *create_sql(const char *table)
{
	gp_sbuf sb;
	int i;

	gp_sbuf_init(&sb);
	gp_sbuf_addf(&sb, "CREATE TABLE IF NOT EXISTS %s (%s", table, fixed_cols);
	for (i = 0; i < GP_M_SWEPT; i++)
		gp_sbuf_addf(&sb, ", %s %s", gp_metrics[i].column,
			     gp_metrics[i].kind == GP_MK_COUNT ? "INTEGER" : "REAL");
	gp_sbuf_adds(&sb, ", PRIMARY KEY (fingerprint, config, seed))");
	return gp_sbuf_detach(&sb);
}

int gp_whatif_store_open(const char *path, gp_whatif_store **out, gp_error *err)
{
	gp_whatif_store *st = gp_xcalloc(1, sizeof(*st));
	sqlite3_stmt *q = NULL;
	char *sql;
	gp_sbuf sb;
	int rc, i;

	*out = NULL;
	st->path = gp_xstrdup(path);
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		rc = gp_error_set(err, GP_EIO, path, 0, 0, "cannot open the database: %s",
				  st->db ? sqlite3_errmsg(st->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(st->db, BUSY_MS);
	/* A file that is not SQLite fails here, with a clear message. */
	if ((rc = begin_write(st, err)))
		goto fail;
	if (sqlite3_exec(st->db, "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)",
			 NULL, NULL, NULL) != SQLITE_OK) {
		rc = gp_error_set(err, GP_EINPUT, path, 0, 0, "not a what-if database: %s",
				  sqlite3_errmsg(st->db));
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		goto fail;
	}
	if ((rc = commit_write(st, err)))
		goto fail;
	if (sqlite3_prepare_v2(st->db, "SELECT value FROM meta WHERE key = 'schema'", -1, &q, NULL) !=
	    SQLITE_OK) {
		rc = db_err(st, err, "reading the schema version");
		goto fail;
	}
	if (sqlite3_step(q) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(q, 0);
		long ver;

		if (!v || gp_parse_long(v, 0, 1000000, &ver) || ver != GP_WHATIF_SCHEMA) {
			rc = gp_error_set(err, GP_EINPUT, path, 0, 0,
					  "what-if database schema '%s', this gpuplan writes %d",
					  v ? v : "?", GP_WHATIF_SCHEMA);
			sqlite3_finalize(q);
			goto fail;
		}
	}
	sqlite3_finalize(q);
	sql = create_sql("runs");
	rc = exec_write(st, sql, err);
	free(sql);
	if (rc)
		goto fail;
	if ((rc = exec_write(st, "INSERT OR IGNORE INTO meta VALUES ('schema', '1')", err)))
		goto fail;
	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "INSERT OR REPLACE INTO runs VALUES (?");
	for (i = 1; i < NFIXED + GP_M_SWEPT; i++)
		gp_sbuf_adds(&sb, ", ?");
	gp_sbuf_adds(&sb, ")");
	rc = sqlite3_prepare_v2(st->db, sb.buf, -1, &st->ins, NULL);
	gp_sbuf_release(&sb);
	if (rc != SQLITE_OK) {
		/* An older table with other columns. */
		rc = gp_error_set(err, GP_EINPUT, path, 0, 0,
				  "table 'runs' does not have this gpuplan's columns: %s",
				  sqlite3_errmsg(st->db));
		goto fail;
	}
	*out = st;
	return GP_OK;
fail:
	sqlite3_finalize(st->ins);
	sqlite3_close(st->db);
	free(st->path);
	free(st);
	return rc;
}

int gp_whatif_store_close(gp_whatif_store *st, gp_error *err)
{
	int rc;

	if (!st)
		return GP_OK;
	rc = GP_OK;
	sqlite3_finalize(st->ins);
	if (sqlite3_close(st->db) != SQLITE_OK && rc == GP_OK)
		rc = gp_error_set(err, GP_EIO, st->path, 0, 0, "cannot close the database");
	free(st->path);
	free(st);
	return rc;
}

int gp_whatif_store_put(gp_whatif_store *st, const gp_whatif_spec *s, const char *fingerprint,
			const char *version, size_t run, const gp_whatif_result *r, double cost,
			gp_error *err)
{
	gp_whatif_config c;
	char *key, buf[512];
	int i, k = 1, rc;

	/* the run's row in a transaction of its own: nothing waits on a
	 * simulation, and a killed sweep keeps every run it finished */
	if ((rc = begin_write(st, err)))
		return rc;
	gp_whatif_config_of(s, run / s->nseeds, &c);
	key = gp_whatif_config_key(s, &c);
	sqlite3_reset(st->ins);
	sqlite3_clear_bindings(st->ins);
	sqlite3_bind_text(st->ins, k++, fingerprint, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st->ins, k++, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st->ins, k++, (sqlite3_int64)s->seeds[run % s->nseeds]);
	sqlite3_bind_text(st->ins, k++, gp_whatif_value(s, &c, GP_AX_TRACE, buf, sizeof(buf)), -1,
			  SQLITE_TRANSIENT);
	if (s->add.n)
		sqlite3_bind_int64(st->ins, k, s->add.counts[c.v[GP_AX_ADD]]);
	k++;
	if (s->remove.n)
		sqlite3_bind_int64(st->ins, k, s->remove.counts[c.v[GP_AX_REMOVE]]);
	k++;
	if (s->fabric.n)
		sqlite3_bind_text(st->ins, k, gp_whatif_value(s, &c, GP_AX_FABRIC, buf, sizeof(buf)), -1,
				  SQLITE_TRANSIENT);
	k++;
	sqlite3_bind_text(st->ins, k++, s->queues[c.v[GP_AX_QUEUE]], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st->ins, k++, s->policies[c.v[GP_AX_POLICY]], -1, SQLITE_TRANSIENT);
	if (s->declared[GP_AX_MTBF] || s->mtbf_node[c.v[GP_AX_MTBF]] > 0)
		sqlite3_bind_double(st->ins, k, s->mtbf_node[c.v[GP_AX_MTBF]]);
	k++;
	if (gp_whatif_failures_on(s, &c) || s->declared[GP_AX_RECOVERY])
		sqlite3_bind_text(st->ins, k, gp_whatif_value(s, &c, GP_AX_RECOVERY, buf, sizeof(buf)), -1,
				  SQLITE_TRANSIENT);
	k++;
	sqlite3_bind_int64(st->ins, k++, r->nodes);
	sqlite3_bind_int64(st->ins, k++, r->gpus);
	sqlite3_bind_double(st->ins, k++, cost);
	if (s->run.scale_ref)
		sqlite3_bind_text(st->ins, k, s->run.scale_ref, -1, SQLITE_TRANSIENT);
	k++;
	sqlite3_bind_text(st->ins, k++, version, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st->ins, k++, s->path, -1, SQLITE_TRANSIENT);
	for (i = 0; i < GP_M_SWEPT; i++, k++) {
		if (gp_metrics[i].kind == GP_MK_COUNT)
			sqlite3_bind_int64(st->ins, k, (sqlite3_int64)r->m[i]);
		else
			sqlite3_bind_double(st->ins, k, r->m[i]);
	}
	free(key);
	if (sqlite3_step(st->ins) != SQLITE_DONE) {
		rc = db_err(st, err, "storing a run");
		sqlite3_reset(st->ins);
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	sqlite3_reset(st->ins);
	return commit_write(st, err);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Index of the value of one axis, or -1. */
static long find_value(const gp_whatif_spec *s, int axis, sqlite3_stmt *q, int col)
{
	const char *t = (const char *)sqlite3_column_text(q, col);
	sqlite3_int64 v = sqlite3_column_int64(q, col);
	int null = sqlite3_column_type(q, col) == SQLITE_NULL;
	size_t i, n = s->nvalues[axis];
	char buf[512];
	gp_whatif_config c;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < n; i++) {
		c.v[axis] = i;
		switch (axis) {
		case GP_AX_ADD:
			if ((!s->add.n && null) || (s->add.n && !null && s->add.counts[i] == v))
				return (long)i;
			break;
		case GP_AX_REMOVE:
			if ((!s->remove.n && null) || (s->remove.n && !null && s->remove.counts[i] == v))
				return (long)i;
			break;
		case GP_AX_MTBF:
			if (null ? !(s->mtbf_node[i] > 0) && !s->declared[GP_AX_MTBF] :
				   sqlite3_column_double(q, col) == s->mtbf_node[i])
				return (long)i;
			break;
		case GP_AX_RECOVERY:
			/* the key check that follows tells restart from "-" */
			if (null || (t && !strcmp(t, gp_recovery_name(s->recoveries[i]))))
				return (long)i;
			break;
		case GP_AX_FABRIC:
			if ((!s->fabric.n && null) ||
			    (s->fabric.n && t && !strcmp(t, gp_whatif_value(s, &c, axis, buf, sizeof(buf)))))
				return (long)i;
			break;
		default:
			if (t && !strcmp(t, gp_whatif_value(s, &c, axis, buf, sizeof(buf))))
				return (long)i;
		}
	}
	return -1;
}

int gp_whatif_store_load(gp_whatif_store *st, const gp_whatif_spec *s, const char *fingerprint,
			 gp_whatif_results *rs, size_t *found, size_t *other, gp_error *err)
{
	static const int axis_col[GP_AX_COUNT] = { 3, 4, 5, 6, 7, 8, 9, 10 };
	sqlite3_stmt *q = NULL;
	uint64_t *sorted;
	gp_sbuf sb;
	int rc, i;

	*found = *other = 0;
	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "SELECT fingerprint, config, seed, trace, add_nodes, remove_nodes, fabric, "
			  "queue, policy, mtbf_node, recovery, nodes, gpus");
	for (i = 0; i < GP_M_SWEPT; i++)
		gp_sbuf_addf(&sb, ", %s", gp_metrics[i].column);
	gp_sbuf_adds(&sb, " FROM runs");
	rc = sqlite3_prepare_v2(st->db, sb.buf, -1, &q, NULL);
	gp_sbuf_release(&sb);
	if (rc != SQLITE_OK)
		return db_err(st, err, "reading runs");
	sorted = gp_xmalloc(s->nseeds * sizeof(*sorted));
	memcpy(sorted, s->seeds, s->nseeds * sizeof(*sorted));
	qsort(sorted, s->nseeds, sizeof(*sorted), cmp_u64);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *fp = (const char *)sqlite3_column_text(q, 0);
		const char *key = (const char *)sqlite3_column_text(q, 1);
		uint64_t seed = (uint64_t)sqlite3_column_int64(q, 2);
		gp_whatif_config c;
		gp_whatif_result r;
		size_t si, cfg;
		char *want;
		int a, ok = 1;

		if (!fp || strcmp(fp, fingerprint)) {
			(*other)++;
			continue;
		}
		if (!bsearch(&seed, sorted, s->nseeds, sizeof(*sorted), cmp_u64))
			continue;
		for (si = 0; s->seeds[si] != seed; si++)
			;
		for (a = 0; a < GP_AX_COUNT && ok; a++) {
			long v = find_value(s, a, q, axis_col[a]);

			if (v < 0)
				ok = 0;
			else
				c.v[a] = (size_t)v;
		}
		if (!ok)
			continue;
		cfg = gp_whatif_config_index(s, &c);
		want = gp_whatif_config_key(s, &c);
		ok = key && !strcmp(want, key);
		free(want);
		if (!ok)
			continue;
		memset(&r, 0, sizeof(r));
		r.nodes = sqlite3_column_int(q, 11);
		r.gpus = sqlite3_column_int(q, 12);
		for (i = 0; i < GP_M_SWEPT; i++)
			r.m[i] = sqlite3_column_double(q, 13 + i);
		gp_whatif_results_put(rs, cfg * s->nseeds + si, &r);
		(*found)++;
	}
	free(sorted);
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return db_err(st, err, "reading runs");
	return GP_OK;
}

int gp_whatif_store_merge(gp_whatif_store *st, const char *src, size_t *added, size_t *dup,
			  gp_error *err)
{
	sqlite3_stmt *q = NULL;
	char *sql;
	int rc;
	sqlite3_int64 before, after, total;
	FILE *fp;

	*added = *dup = 0;
	/* ATTACH would create a missing file. */
	fp = fopen(src, "rb");
	if (!fp)
		return gp_error_set(err, GP_EIO, src, 0, 0, "cannot open: %m");
	fclose(fp);
	if (sqlite3_prepare_v2(st->db, "ATTACH DATABASE ? AS src", -1, &q, NULL) != SQLITE_OK)
		return db_err(st, err, "attach");
	sqlite3_bind_text(q, 1, src, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return gp_error_set(err, GP_EINPUT, src, 0, 0, "cannot read as a database: %s",
				    sqlite3_errmsg(st->db));
	rc = GP_OK;
	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM src.runs", -1, &q, NULL) != SQLITE_OK) {
		rc = gp_error_set(err, GP_EINPUT, src, 0, 0, "not a what-if database: %s",
				  sqlite3_errmsg(st->db));
		goto detach;
	}
	total = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	sqlite3_finalize(q);
	before = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM main.runs", -1, &q, NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW)
		before = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	/* Same schema: the columns line up by position. */
	sql = gp_xstrdup("INSERT OR IGNORE INTO main.runs SELECT * FROM src.runs");
	if (exec_write(st, sql, err)) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err ? err->msg : "");
		rc = gp_error_set(err, GP_EINPUT, src, 0, 0, "cannot merge: %s", msg);
		free(sql);
		goto detach;
	}
	free(sql);
	after = before;
	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM main.runs", -1, &q, NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW)
		after = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	*added = (size_t)(after - before);
	*dup = (size_t)(total - (after - before));
detach:
	sqlite3_exec(st->db, "DETACH DATABASE src", NULL, NULL, NULL);
	return rc;
}
