/* gpuplan release: give a job's allocation back (the other end of
 * `place --commit`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "opt.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/state.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/util/hostlist.h"
#include "gpuplan/util/util.h"

#define CMD "release"

enum { O_CLUSTER = 'c', O_STATE = 256, O_JOB, O_COMMIT, O_JSON, O_LOCK };

static const gp_opt release_opts[] = {
	GP_OPT_CLUSTER(O_CLUSTER),
	{ .name = "state", .key = O_STATE, .type = GP_OT_STR, .arg = "FILE",
	  .help = "the allocation state" },
	{ .name = "job", .key = O_JOB, .type = GP_OT_STR, .arg = "NAME",
	  .help = "job (or glob) to release; repeatable" },
	{ .name = "commit", .key = O_COMMIT, .type = GP_OT_FLAG,
	  .help = "write the state back (under the state file's lock, as\nplace --commit)" },
	GP_OPT_LOCK_TIMEOUT(O_LOCK),
	{ .name = "json", .key = O_JSON, .type = GP_OT_FLAG,
	  .help = "machine-readable output (keys sorted)" },
	{ 0 },
};

const gp_cmd_desc gp_desc_release = {
	.name = "release",
	.synopsis = "[-c CLUSTER] --state FILE --job NAME [--job NAME]...\n"
		    "        [--commit [--lock-timeout S]] [--json]",
	.min_args = 0, .max_args = 0,
	.about = "Give back what jobs hold in an allocation state: print the GPUs, CPUs and\n"
		 "memory each entry frees and, with --commit, write the state without them\n"
		 "(atomically).  NAME may be a glob (\"in-use@*\").  Exit 1 when no entry\n"
		 "matches.\n",
	.opts = release_opts,
};

/* "gpus 0-3  cpus 0-15  mem 64 GiB" of one entry (what follows the node). */
static char *entry_text(const gp_state_entry *e)
{
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "gpus ");
	if (e->ngpus)
		gp_sbuf_add_ranges(&sb, e->gpus, e->ngpus);
	else
		gp_sbuf_adds(&sb, "-");
	if (e->milli != GP_MILLI)
		gp_sbuf_addf(&sb, " x %d milli", e->milli);
	if (e->ncpus > 0) {
		gp_sbuf_adds(&sb, "  cpus ");
		gp_sbuf_add_ranges(&sb, e->cpus, e->ncpus);
	} else if (e->cpu_milli > 0) {
		gp_sbuf_addf(&sb, "  cpus %.4g", e->cpu_milli / 1000.0);
	}
	if (e->mem_mib > 0)
		gp_sbuf_addf(&sb, "  memory %.4g GiB", e->mem_mib / 1024.0);
	return gp_sbuf_detach(&sb);
}

typedef struct release_tally {
	long entries, gpus;
} release_tally;

static json_t *entry_json(const gp_state_entry *e, const gp_cluster *cl)
{
	json_t *o = json_object(), *g = json_array(), *cp = json_array();
	int x;

	for (x = 0; x < e->ngpus; x++)
		json_array_append_new(g, json_integer(e->gpus[x]));
	for (x = 0; x < e->ncpus; x++)
		json_array_append_new(cp, json_integer(e->cpus[x]));
	json_object_set_new(o, "job", json_string(e->job));
	json_object_set_new(o, "node", json_string(cl->nodes[e->node].name));
	json_object_set_new(o, "gpus", g);
	json_object_set_new(o, "cpus", cp);
	json_object_set_new(o, "share", json_integer(e->milli));
	json_object_set_new(o, "memory_gib", json_real(e->mem_mib > 0 ? e->mem_mib / 1024.0 : 0));
	return o;
}

/* One line per job and set of alike entries (text[i], NULL for the
 * others), nodes compressed; frees the texts it prints. */
static void print_alike(const gp_state *st, const gp_cluster *cl, char **text)
{
	const char **names = gp_xcalloc(st->n + 1, sizeof(*names));
	size_t i, j, m;

	for (i = 0; i < st->n; i++) {
		gp_sbuf hl;

		if (!text[i])
			continue;
		m = 0;
		for (j = i; j < st->n; j++)
			if (text[j] && !strcmp(st->entries[j].job, st->entries[i].job) &&
			    !strcmp(text[j], text[i])) {
				names[m++] = cl->nodes[st->entries[j].node].name;
				if (j > i) {
					free(text[j]);
					text[j] = NULL;
				}
			}
		gp_sbuf_init(&hl);
		gp_hostlist_compress(names, m, &hl);
		printf("  %-20s %-14s %s\n", st->entries[i].job, hl.buf, text[i]);
		gp_sbuf_release(&hl);
		free(text[i]);
		text[i] = NULL;
	}
	free(names);
}

/* The entries of job (a name or a pattern) out of st: into arr (JSON) or
 * printed, and counted. */
static void release_job(gp_state *st, const gp_cluster *cl, const char *job,
			const char *state_path, json_t *arr, release_tally *tally)
{
	char **text = gp_xcalloc(st->n + 1, sizeof(*text));
	size_t i, n = 0;

	for (i = 0; i < st->n; i++) {
		const gp_state_entry *e = &st->entries[i];

		if (!gp_state_entry_matches(st, i, job))
			continue;
		n++;
		tally->entries++;
		tally->gpus += e->ngpus;
		if (arr)
			json_array_append_new(arr, entry_json(e, cl));
		else
			text[i] = entry_text(e);
	}
	if (!arr && n) {
		printf("release %s:\n", job);
		print_alike(st, cl, text);
	} else if (!arr) {
		printf("release %s: no allocation in %s\n", job, state_path);
	}
	for (i = 0; i < st->n; i++)
		free(text[i]);
	free(text);
	gp_state_remove_jobs(st, job);
}

int cmd_release(int argc, char **argv)
{
	const char *cluster_path = NULL, *state_path = NULL;
	const char **jobs = gp_xcalloc((size_t)argc + 1, sizeof(*jobs));
	int njobs = 0, commit = 0, json = 0, c, rc = GP_OK, k;
	gp_opt_state o;
	gp_cluster cl;
	gp_alloc a;
	gp_state st;
	gp_error err = GP_ERROR_INIT;
	json_t *root = NULL, *arr = NULL;
	release_tally tally = { 0, 0 };
	double lock_timeout = 60;
	gp_txn txn = { { -1 }, NULL, 0 };

	gp_opt_begin(&o, &gp_desc_release, argc, argv);
	while ((c = gp_opt_next(&o)) > 0) {
		switch (c) {
		case O_CLUSTER: cluster_path = o.arg; break;
		case O_STATE: state_path = o.arg; break;
		case O_JOB: jobs[njobs++] = o.arg; break;
		case O_COMMIT: commit = 1; break;
		case O_JSON: json = 1; break;
		case O_LOCK: lock_timeout = o.v; break;
		}
	}
	gp_opt_end(&o);
	if (c < 0) {
		free(jobs);
		return o.status;
	}
	if (!state_path || !njobs) {
		free(jobs);
		return gp_cli_usage_error(CMD, "--state FILE and --job NAME are required");
	}
	if (!cluster_path)
		cluster_path = gp_cli_default_cluster();
	gp_cluster_init(&cl);
	gp_state_init(&st);
	memset(&a, 0, sizeof(a));
	if (gp_cluster_load(cluster_path, &cl, &err)) {
		rc = gp_cli_report(&err);
		goto out;
	}
	gp_alloc_init(&a, &cl);
	/* --commit reads and writes in one transaction (under the state file's lock) */
	if (commit ? gp_state_begin(&txn, state_path, 0, lock_timeout, &cl, &a, &st, &err)
		   : gp_state_load(state_path, &cl, &a, &st, &err)) {
		rc = gp_cli_report(&err);
		goto out;
	}
	if (json) {
		root = json_object();
		arr = json_array();
	}
	for (k = 0; k < njobs; k++)
		release_job(&st, &cl, jobs[k], state_path, arr, &tally);
	if (commit && tally.entries && gp_state_commit(&txn, &cl, &st, &err)) {
		rc = gp_cli_report(&err);
		goto out;
	}
	if (json) {
		json_object_set_new(root, "released", arr);
		arr = NULL;
		json_object_set_new(root, "entries", json_integer(tally.entries));
		json_object_set_new(root, "gpus", json_integer(tally.gpus));
		json_object_set_new(root, "committed", json_boolean(commit && tally.entries));
		if (json_dumpf(root, stdout, JSON_SORT_KEYS | JSON_INDENT(2)) == 0)
			fputc('\n', stdout);
	} else if (tally.entries) {
		printf("freed %ld GPU(s) in %ld entr%s; %s\n", tally.gpus, tally.entries,
		       tally.entries == 1 ? "y" : "ies",
		       commit ? "state written" : "dry run (--commit writes the state)");
	}
	rc = tally.entries ? GP_OK : GP_NO;
out:
	gp_txn_abort(&txn);
	json_decref(root);
	json_decref(arr);
	gp_state_release(&st);
	gp_alloc_release(&a);
	gp_cluster_release(&cl);
	free(jobs);
	return rc;
}
