/* Job lists (a root 'jobs' list, or a list at the root): each job read
 * as it is parsed (io/jobspec.c reads one job), names unique. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/jobspec.h"
#include "gpuplan/io/yaml.h"
#include "gpuplan/model/job.h"
#include "gpuplan/util/util.h"

/* A job list being read: the jobs so far, an index of their names, and
 * the duplicate to report (the one of the smallest name, as a sorted
 * list would find it first). */
typedef struct list_loader {
	gp_joblist *list;
	uint32_t *names;            /* open addressing: job index + 1, 0 empty */
	size_t cap;
	const char *dup;            /* that name (a job's id), NULL when none */
	int dup_line, dup_col;      /* its second occurrence's 'name' */
	int64_t dup_first;          /* line of its first occurrence */
} list_loader;

/* Slot of name in the index (empty when absent). */
static size_t name_slot(const list_loader *L, const char *name)
{
	size_t h;

	for (h = gp_hash_str(name) & (L->cap - 1); L->names[h]; h = (h + 1) & (L->cap - 1))
		if (!strcmp(L->list->jobs[L->names[h] - 1].id, name))
			break;
	return h;
}

/* Names identify jobs in the state file: they must be unique. */
static void note_name(list_loader *L, const gp_yaml_node *item)
{
	size_t n = L->list->n, i, h;
	const gp_job *j = &L->list->jobs[n - 1];

	if (2 * n > L->cap) {
		free(L->names);
		L->cap = L->cap ? 2 * L->cap : 64;
		L->names = gp_xcalloc(L->cap, sizeof(*L->names));
		for (i = 0; i + 1 < n; i++) {
			h = name_slot(L, L->list->jobs[i].id);
			if (!L->names[h])
				L->names[h] = (uint32_t)(i + 1);
		}
	}
	h = name_slot(L, j->id);
	if (!L->names[h]) {
		L->names[h] = (uint32_t)n;
	} else if (!L->dup || strcmp(j->id, L->dup) < 0) {
		const gp_yaml_node *nm = gp_yaml_get(item, "name");

		L->dup = j->id;
		L->dup_line = nm ? (int)nm->line : 0;
		L->dup_col = nm ? (int)nm->col : 0;
		L->dup_first = L->list->jobs[L->names[h] - 1].line;
	}
}

static int add_job(void *ud, const gp_yaml_doc *doc, const gp_yaml_node *item, size_t index,
		   gp_error *err)
{
	list_loader *L = ud;
	gp_job *j;
	int rc;

	if (index >= GP_JOBSPEC_MAX_JOBS)
		return gp_yaml_error(doc, item, err, "more than %d jobs in one list",
				     GP_JOBSPEC_MAX_JOBS);
	j = gp_joblist_push(L->list);
	if ((rc = gp_jobspec_from_yaml(doc, item, j, err))) {
		L->list->n--;
		return rc;
	}
	gp_joblist_pool_job(L->list, j);
	note_name(L, item);
	return GP_OK;
}

/* The jobs under a root 'jobs' key are converted as they are parsed
 * (memory: one job's YAML at a time); a list at the root is converted
 * from the tree. */
int gp_jobspec_load_list(const char *path, gp_joblist *list, gp_error *err)
{
	gp_yaml_doc doc;
	const gp_yaml_node *seq;
	list_loader L;
	size_t i;
	int rc;

	gp_joblist_init(list);
	memset(&L, 0, sizeof(L));
	L.list = list;
	rc = gp_yaml_load_stream(path, GP_JOBSPEC_MAX_FILE, 0, "jobs", add_job, &L, &doc, err);
	if (rc)
		goto out;
	seq = doc.root;
	if (seq && seq->type == GP_YAML_MAP) {
		static const char *const list_keys[] = { "jobs", NULL };

		if ((rc = gp_yaml_check_keys(&doc, seq, "job list", list_keys, err)))
			goto out;
		seq = gp_yaml_get(doc.root, "jobs");
		if (!seq) {
			rc = gp_yaml_error(&doc, doc.root, err, "job list has no 'jobs'");
			goto out;
		}
	} else {
		for (i = 0; seq && seq->type == GP_YAML_SEQ && i < seq->n; i++)
			if ((rc = add_job(&L, &doc, seq->items[i], i, err)))
				goto out;
	}
	if (!seq) {
		rc = gp_error_set(err, GP_EINPUT, path, 1, 1, "empty job list");
		goto out;
	}
	if (seq->type != GP_YAML_SEQ || list->n == 0) {
		rc = gp_yaml_error(&doc, seq, err, "expected a non-empty list of jobs");
		goto out;
	}
	if (L.dup) {
		rc = gp_error_set(err, GP_EINPUT, doc.path, L.dup_line, L.dup_col,
				  "duplicate job name '%s' (first at line %lld)", L.dup,
				  (long long)L.dup_first);
		goto out;
	}
	list->source = gp_xstrdup(path);
	list->format = gp_xstrdup("job-yaml");
out:
	free(L.names);
	gp_yaml_doc_release(&doc);
	if (rc)
		gp_joblist_release(list);
	return rc;
}
