/* SQLite store of what-if runs (store.h). */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpuplan/sim/failsim.h"
#include "gpuplan/util/util.h"
#include "gpuplan/whatif/quota.h"
#include "gpuplan/whatif/store.h"

struct gp_whatif_store {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *ins;              /* the insert for ins_spec's columns */
	const gp_whatif_spec *ins_spec;
};

/* Several sweeps may write one database: each write is a short
 * transaction of its own (a run's row, never a simulation), taken with
 * BEGIN IMMEDIATE so that two writers never deadlock on upgrading a read
 * lock (SQLite then answers BUSY at once, without waiting); each attempt
 * waits BUSY_MS for the lock, and a busy database is tried again
 * BUSY_TRIES times before the sweep gives up. */
#define BUSY_MS 10000
#define BUSY_TRIES 6

/* The columns every database has, by name: the run's key, the axes of the
 * first schema, the cluster's size and the inputs.  The metrics follow
 * (metrics.h), then the columns of the other axes, added to the table when
 * a spec first stores such an axis (spec.h, gp_whatif_ncolumns).  Every
 * read and write names its columns, so their order in a file does not
 * matter: a file written by an older gpuplan gains the columns it lacks. */
static const struct {
	const char *name, *type;
} fixed_cols[] = {
	{ "fingerprint", "TEXT NOT NULL" }, { "config", "TEXT NOT NULL" },
	{ "seed", "INTEGER NOT NULL" }, { "trace", "TEXT" }, { "add_nodes", "INTEGER" },
	{ "remove_nodes", "INTEGER" }, { "fabric", "TEXT" }, { "queue", "TEXT" },
	{ "policy", "TEXT" }, { "mtbf_node", "REAL" }, { "recovery", "TEXT" },
	{ "nodes", "INTEGER" }, { "gpus", "INTEGER" }, { "cost", "REAL" },
	{ "scale_durations", "TEXT" }, { "gpuplan_version", "TEXT" }, { "spec", "TEXT" },
};
#define NFIXED ((int)(sizeof(fixed_cols) / sizeof(fixed_cols[0])))
/* Columns of the key (a merged file needs them). */
#define NKEY 3

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

/* A column name as an SQL identifier: "quota.a" stays one name. */
static void add_ident(gp_sbuf *sb, const char *name)
{
	const char *p;

	gp_sbuf_adds(sb, "\"");
	for (p = name; *p; p++)
		if (*p == '"')
			gp_sbuf_adds(sb, "\"\"");
		else
			gp_sbuf_add(sb, p, 1);
	gp_sbuf_adds(sb, "\"");
}

static char *create_sql(void)
{
	gp_sbuf sb;
	int i;

	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "CREATE TABLE IF NOT EXISTS runs (");
	for (i = 0; i < NFIXED; i++)
		gp_sbuf_addf(&sb, "%s%s %s", i ? ", " : "", fixed_cols[i].name, fixed_cols[i].type);
	for (i = 0; i < GP_M_SWEPT; i++)
		gp_sbuf_addf(&sb, ", %s %s", gp_metrics[i].column,
			     gp_metrics[i].kind == GP_MK_COUNT ? "INTEGER" : "REAL");
	gp_sbuf_adds(&sb, ", PRIMARY KEY (fingerprint, config, seed))");
	return gp_sbuf_detach(&sb);
}

/* The columns of table runs in database db ("main", "src"): names and
 * declared types, NULL-terminated vectors; *n gets their number. */
static int table_columns(gp_whatif_store *st, const char *db, char ***names, char ***types,
			 size_t *n)
{
	sqlite3_stmt *q = NULL;
	size_t cap = 0;
	char sql[64];
	int rc;

	*names = NULL;
	*types = NULL;
	*n = 0;
	snprintf(sql, sizeof(sql), "PRAGMA %s.table_info(runs)", db);
	if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK)
		return 1;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(q, 1);
		const char *type = (const char *)sqlite3_column_text(q, 2);

		if (*n + 1 >= cap) {
			cap = cap ? 2 * cap : 64;
			*names = gp_xrealloc(*names, cap * sizeof(**names));
			*types = gp_xrealloc(*types, cap * sizeof(**types));
		}
		(*names)[*n] = gp_xstrdup(name ? name : "");
		(*types)[(*n)++] = gp_xstrdup(type ? type : "");
	}
	sqlite3_finalize(q);
	if (*names)
		(*names)[*n] = (*types)[*n] = NULL;
	return rc != SQLITE_DONE;
}

static void free_columns(char **names, char **types, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(names[i]);
		free(types[i]);
	}
	free(names);
	free(types);
}

static int has_column(char *const *names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!sqlite3_stricmp(names[i], name))
			return 1;
	return 0;
}

/* Add column name of type to main.runs unless it has it (in a write
 * transaction: no other writer adds it meanwhile). */
static int add_column(gp_whatif_store *st, char *const *have, size_t n, const char *name,
		      const char *type, gp_error *err)
{
	gp_sbuf sb;
	int rc;

	if (has_column(have, n, name))
		return GP_OK;
	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "ALTER TABLE main.runs ADD COLUMN ");
	add_ident(&sb, name);
	gp_sbuf_addf(&sb, " %s", type);
	rc = exec(st, sb.buf, err);
	gp_sbuf_release(&sb);
	return rc;
}

/* Each tenant's figure (quota.h) in a column of its own,
 * "tenant.a.queue_delay_p90", in runs of specs with tenant axes or SLOs. */
static size_t figure_columns(const gp_whatif_spec *s)
{
	return s->have_tenants ? s->tenants.n : 0;
}

/* The named axis and figure columns of spec s (spec.h) in main.runs. */
static int add_axis_columns(gp_whatif_store *st, const gp_whatif_spec *s, gp_error *err)
{
	char **names, **types;
	size_t n, k, ncols = gp_whatif_ncolumns(s);
	int rc = GP_OK;

	if (!ncols && !figure_columns(s))
		return GP_OK;
	if ((rc = begin_write(st, err)))
		return rc;
	if (table_columns(st, "main", &names, &types, &n)) {
		rc = db_err(st, err, "reading the columns");
	} else {
		for (k = 0; k < ncols && rc == GP_OK; k++) {
			char buf[512];
			int numeric;
			const char *name = gp_whatif_column_name(s, k, &numeric, buf, sizeof(buf));

			rc = add_column(st, names, n, name, numeric ? "NUMERIC" : "TEXT", err);
		}
		for (k = 0; k < figure_columns(s) && rc == GP_OK; k++) {
			char buf[512];

			rc = add_column(st, names, n, gp_whatif_quota_figure_column(s, k, buf, sizeof(buf)),
					"REAL", err);
		}
		free_columns(names, types, n);
	}
	if (rc) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return commit_write(st, err);
}

/* Schema version of database db, 0 when it has none; -1 when unreadable. */
static long schema_of(gp_whatif_store *st, const char *db)
{
	sqlite3_stmt *q = NULL;
	char sql[96];
	long ver = 0;

	snprintf(sql, sizeof(sql), "SELECT value FROM %s.meta WHERE key = 'schema'", db);
	if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(q) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(q, 0);

		if (!v || gp_parse_long(v, 0, 1000000, &ver))
			ver = -1;
	}
	sqlite3_finalize(q);
	return ver;
}

static int newer(const char *path, long ver, gp_error *err)
{
	return gp_error_set(err, GP_EINPUT, path, 0, 0,
			    "what-if database schema %ld, written by a newer gpuplan "
			    "(this one reads schemas 1 to %d)", ver, GP_WHATIF_SCHEMA);
}

/* Create the tables, or bring a file of schema 1 to this one: the same
 * columns under the same names, so its rows keep their meaning; it gains
 * the columns it lacks (NULL in its rows). */
static int open_tables(gp_whatif_store *st, gp_error *err)
{
	char **names = NULL, **types = NULL, *sql;
	size_t n = 0;
	long ver;
	int rc, i;

	/* A file that is not SQLite fails here, with a clear message. */
	if ((rc = begin_write(st, err)))
		return rc;
	if (sqlite3_exec(st->db, "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)",
			 NULL, NULL, NULL) != SQLITE_OK) {
		rc = gp_error_set(err, GP_EINPUT, st->path, 0, 0, "not a what-if database: %s",
				  sqlite3_errmsg(st->db));
		goto out;
	}
	ver = schema_of(st, "main");
	if (ver < 0) {
		rc = gp_error_set(err, GP_EINPUT, st->path, 0, 0,
				  "what-if database schema '?', this gpuplan reads 1 to %d",
				  GP_WHATIF_SCHEMA);
		goto out;
	}
	if (ver > GP_WHATIF_SCHEMA) {
		rc = newer(st->path, ver, err);
		goto out;
	}
	sql = create_sql();
	rc = exec(st, sql, err);
	free(sql);
	if (rc)
		goto out;
	if (table_columns(st, "main", &names, &types, &n)) {
		rc = db_err(st, err, "reading the columns");
		goto out;
	}
	for (i = 0; i < NKEY; i++)
		if (!has_column(names, n, fixed_cols[i].name)) {
			rc = gp_error_set(err, GP_EINPUT, st->path, 0, 0,
					  "table 'runs' has no column '%s': not a what-if database",
					  fixed_cols[i].name);
			goto out;
		}
	for (i = NKEY; i < NFIXED && rc == GP_OK; i++)
		rc = add_column(st, names, n, fixed_cols[i].name, fixed_cols[i].type, err);
	for (i = 0; i < GP_M_SWEPT && rc == GP_OK; i++)
		rc = add_column(st, names, n, gp_metrics[i].column,
				gp_metrics[i].kind == GP_MK_COUNT ? "INTEGER" : "REAL", err);
	if (rc == GP_OK && ver != GP_WHATIF_SCHEMA) {
		char set[96];

		snprintf(set, sizeof(set), "INSERT OR REPLACE INTO meta VALUES ('schema', '%d')",
			 GP_WHATIF_SCHEMA);
		rc = exec(st, set, err);
	}
out:
	free_columns(names, types, n);
	if (rc) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return commit_write(st, err);
}

int gp_whatif_store_open(const char *path, gp_whatif_store **out, gp_error *err)
{
	gp_whatif_store *st = gp_xcalloc(1, sizeof(*st));
	int rc;

	*out = NULL;
	st->path = gp_xstrdup(path);
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		rc = gp_error_set(err, GP_EIO, path, 0, 0, "cannot open the database: %s",
				  st->db ? sqlite3_errmsg(st->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(st->db, BUSY_MS);
	if ((rc = open_tables(st, err)))
		goto fail;
	*out = st;
	return GP_OK;
fail:
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

/* The insert of spec s's columns, by name: the fixed ones, the metrics,
 * the named axis columns. */
static int prepare_insert(gp_whatif_store *st, const gp_whatif_spec *s, gp_error *err)
{
	size_t k, ncols = gp_whatif_ncolumns(s);
	gp_sbuf sb;
	int i, rc;

	if (st->ins && st->ins_spec == s)
		return GP_OK;
	sqlite3_finalize(st->ins);
	st->ins = NULL;
	st->ins_spec = NULL;
	if ((rc = add_axis_columns(st, s, err)))
		return rc;
	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "INSERT OR REPLACE INTO runs (");
	for (i = 0; i < NFIXED; i++)
		gp_sbuf_addf(&sb, "%s%s", i ? ", " : "", fixed_cols[i].name);
	for (i = 0; i < GP_M_SWEPT; i++)
		gp_sbuf_addf(&sb, ", %s", gp_metrics[i].column);
	for (k = 0; k < ncols; k++) {
		char buf[512];
		int numeric;

		gp_sbuf_adds(&sb, ", ");
		add_ident(&sb, gp_whatif_column_name(s, k, &numeric, buf, sizeof(buf)));
	}
	for (k = 0; k < figure_columns(s); k++) {
		char buf[512];

		gp_sbuf_adds(&sb, ", ");
		add_ident(&sb, gp_whatif_quota_figure_column(s, k, buf, sizeof(buf)));
	}
	gp_sbuf_adds(&sb, ") VALUES (?");
	for (k = 1; k < (size_t)(NFIXED + GP_M_SWEPT) + ncols + figure_columns(s); k++)
		gp_sbuf_adds(&sb, ", ?");
	gp_sbuf_adds(&sb, ")");
	rc = sqlite3_prepare_v2(st->db, sb.buf, -1, &st->ins, NULL);
	gp_sbuf_release(&sb);
	if (rc != SQLITE_OK) {
		st->ins = NULL;
		return db_err(st, err, "preparing the insert");
	}
	st->ins_spec = s;
	return GP_OK;
}

int gp_whatif_store_put(gp_whatif_store *st, const gp_whatif_spec *s, const char *fingerprint,
			const char *version, size_t run, const gp_whatif_result *r, double cost,
			gp_error *err)
{
	gp_whatif_config c;
	char *key, buf[512];
	size_t ck, ncols;
	int i, k = 1, rc;

	if ((rc = prepare_insert(st, s, err)))
		return rc;
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
	ncols = gp_whatif_ncolumns(s);
	for (ck = 0; ck < ncols; ck++, k++) {
		double num;
		int kind = gp_whatif_column_value(s, ck, &c, &num, buf, sizeof(buf));

		if (kind == 1 && num == (double)(sqlite3_int64)num)
			sqlite3_bind_int64(st->ins, k, (sqlite3_int64)num);
		else if (kind == 1)
			sqlite3_bind_double(st->ins, k, num);
		else if (kind == 2)
			sqlite3_bind_text(st->ins, k, buf, -1, SQLITE_TRANSIENT);
	}
	for (ck = 0; ck < figure_columns(s); ck++, k++)
		if (!isnan(r->tenant[ck]))
			sqlite3_bind_double(st->ins, k, r->tenant[ck]);
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

/* Index of the value of one axis of the first schema, or -1. */
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
	/* columns of the select: fingerprint, config, seed, the axes of the
	 * first schema (3..10), nodes, gpus, the metrics */
	enum { C_AXES = 3, C_NODES = C_AXES + GP_AX_FIXED, C_GPUS, C_METRICS };
	sqlite3_stmt *q = NULL;
	uint64_t *sorted;
	gp_sbuf sb;
	int rc, i;

	*found = *other = 0;
	/* the spec's figure columns, NULL in rows of other specs */
	if ((rc = add_axis_columns(st, s, err)))
		return rc;
	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "SELECT fingerprint, config, seed");
	for (i = 0; i < GP_AX_FIXED; i++)
		gp_sbuf_addf(&sb, ", %s", gp_whatif_axis_names[i]);
	gp_sbuf_adds(&sb, ", nodes, gpus");
	for (i = 0; i < GP_M_SWEPT; i++)
		gp_sbuf_addf(&sb, ", %s", gp_metrics[i].column);
	for (i = 0; i < (int)figure_columns(s); i++) {
		char buf[512];

		gp_sbuf_adds(&sb, ", ");
		add_ident(&sb, gp_whatif_quota_figure_column(s, (size_t)i, buf, sizeof(buf)));
	}
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
		if (!key || !bsearch(&seed, sorted, s->nseeds, sizeof(*sorted), cmp_u64))
			continue;
		for (si = 0; s->seeds[si] != seed; si++)
			;
		for (a = 0; a < GP_AX_COUNT && ok; a++) {
			/* the other axes by their part of the key */
			long v = a < GP_AX_FIXED ? find_value(s, a, q, C_AXES + a) :
						   gp_whatif_key_find(s, a, key);

			if (v < 0)
				ok = 0;
			else
				c.v[a] = (size_t)v;
		}
		if (!ok)
			continue;
		cfg = gp_whatif_config_index(s, &c);
		want = gp_whatif_config_key(s, &c);
		ok = !strcmp(want, key);
		free(want);
		if (!ok)
			continue;
		memset(&r, 0, sizeof(r));
		r.nodes = sqlite3_column_int(q, C_NODES);
		r.gpus = sqlite3_column_int(q, C_GPUS);
		for (i = 0; i < GP_M_SWEPT; i++)
			r.m[i] = sqlite3_column_double(q, C_METRICS + i);
		for (i = 0; i < (int)figure_columns(s); i++)
			r.tenant[i] = sqlite3_column_type(q, C_METRICS + GP_M_SWEPT + i) == SQLITE_NULL ?
					      NAN : sqlite3_column_double(q, C_METRICS + GP_M_SWEPT + i);
		gp_whatif_results_put(rs, cfg * s->nseeds + si, &r);
		(*found)++;
	}
	free(sorted);
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return db_err(st, err, "reading runs");
	return GP_OK;
}

static sqlite3_int64 count_rows(gp_whatif_store *st, const char *sql)
{
	sqlite3_stmt *q = NULL;
	sqlite3_int64 n = 0;

	if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		n = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return n;
}

/* Copy src.runs into main.runs column by column name: a column only src
 * has (an axis or metric this gpuplan does not know) is added to main, a
 * column only main has is NULL in the copied rows. */
static int merge_rows(gp_whatif_store *st, const char *src, gp_error *err)
{
	char **names = NULL, **types = NULL, **have = NULL, **htypes = NULL;
	size_t n = 0, nhave = 0, i;
	gp_sbuf sb;
	int rc;

	if ((rc = begin_write(st, err)))
		return rc;
	if (table_columns(st, "src", &names, &types, &n) ||
	    table_columns(st, "main", &have, &htypes, &nhave)) {
		rc = db_err(st, err, "reading the columns");
		goto out;
	}
	for (i = 0; i < NKEY; i++)
		if (!has_column(names, n, fixed_cols[i].name)) {
			rc = gp_error_set(err, GP_EINPUT, src, 0, 0,
					  "not a what-if database: table 'runs' has no column '%s'",
					  fixed_cols[i].name);
			goto out;
		}
	for (i = 0; i < n && rc == GP_OK; i++)
		rc = add_column(st, have, nhave, names[i], types[i], err);
	if (rc)
		goto out;
	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "INSERT OR IGNORE INTO main.runs (");
	for (i = 0; i < n; i++) {
		gp_sbuf_adds(&sb, i ? ", " : "");
		add_ident(&sb, names[i]);
	}
	gp_sbuf_adds(&sb, ") SELECT ");
	for (i = 0; i < n; i++) {
		gp_sbuf_adds(&sb, i ? ", " : "");
		add_ident(&sb, names[i]);
	}
	gp_sbuf_adds(&sb, " FROM src.runs");
	rc = exec(st, sb.buf, err);
	gp_sbuf_release(&sb);
out:
	free_columns(names, types, n);
	free_columns(have, htypes, nhave);
	if (rc) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return commit_write(st, err);
}

int gp_whatif_store_merge(gp_whatif_store *st, const char *src, size_t *added, size_t *dup,
			  gp_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc;
	sqlite3_int64 before, after, total;
	long ver;
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
	/* Schema 1 (axis columns of the first eight axes only) and this one
	 * merge alike, by column name; a newer file is left alone. */
	ver = schema_of(st, "src");
	if (ver > GP_WHATIF_SCHEMA) {
		rc = newer(src, ver, err);
		goto detach;
	}
	before = count_rows(st, "SELECT count(*) FROM main.runs");
	if ((rc = merge_rows(st, src, err))) {
		char msg[sizeof(err->msg)];

		if (err && !strncmp(err->file, src, sizeof(err->file) - 1))
			goto detach;
		snprintf(msg, sizeof(msg), "%s", err ? err->msg : "");
		rc = gp_error_set(err, rc, src, 0, 0, "cannot merge: %s", msg);
		goto detach;
	}
	after = count_rows(st, "SELECT count(*) FROM main.runs");
	*added = (size_t)(after - before);
	*dup = (size_t)(total - (after - before));
detach:
	sqlite3_exec(st->db, "DETACH DATABASE src", NULL, NULL, NULL);
	return rc;
}
