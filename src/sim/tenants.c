/* The tenants file (tenants.h): names, quotas per resource, cohorts,
 * borrowing and lending limits, weights. */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/yaml.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/sim/tenants.h"
#include "gpuplan/util/util.h"

void gp_tenants_init(gp_tenants *t)
{
	memset(t, 0, sizeof(*t));
}

void gp_tenants_release(gp_tenants *t)
{
	size_t i;
	int k;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		free(t->t[i].name);
	free(t->t);
	for (k = 0; k < t->nres; k++)
		free(t->res[k]);
	for (k = 0; k < t->ncohorts; k++)
		free(t->cohorts[k]);
	free(t->cohorts);
	free(t->path);
	free(t->by_name);
	gp_tenants_init(t);
}

int gp_tenants_find(const gp_tenants *t, const char *name)
{
	size_t lo = 0, hi = t->n;

	if (!name || !t->by_name)
		return -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(t->t[t->by_name[mid]].name, name);

		if (!c)
			return t->by_name[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int resource(gp_tenants *t, const char *name)
{
	int k;

	for (k = 0; k < t->nres; k++)
		if (!strcmp(t->res[k], name))
			return k;
	if (t->nres == GP_TENANTS_MAX_RES)
		return -1;
	t->res[t->nres] = gp_xstrdup(name);
	return t->nres++;
}

static int cohort(gp_tenants *t, const char *name)
{
	int k;

	for (k = 0; k < t->ncohorts; k++)
		if (!strcmp(t->cohorts[k], name))
			return k;
	t->cohorts = gp_xrealloc(t->cohorts, (size_t)(t->ncohorts + 1) * sizeof(*t->cohorts));
	t->cohorts[t->ncohorts] = gp_xstrdup(name);
	return t->ncohorts++;
}

static int gpus(const gp_yaml_doc *doc, const gp_yaml_node *n, const char *what, int64_t *out,
		gp_error *err)
{
	long v;

	if (gp_yaml_long(doc, n, what, 0, GP_TENANTS_MAX_GPUS, &v, err))
		return GP_EINPUT;
	*out = (int64_t)v * GP_MILLI;
	return GP_OK;
}

static const char *const tenant_keys[] = {
	"name", "quota", "cohort", "borrowing_limit", "lending_limit", "weight", NULL
};

static int one(gp_tenants *t, const gp_yaml_doc *doc, const gp_yaml_node *m, gp_error *err)
{
	gp_tenant *x = &t->t[t->n];
	const gp_yaml_node *v;
	const char *s;
	size_t i;

	memset(x, 0, sizeof(*x));
	x->cohort = -1;
	x->borrow_limit = x->lend_limit = -1;
	x->weight = 1;
	x->line = (int)m->line;
	if (gp_yaml_check_keys(doc, m, "a tenant", tenant_keys, err))
		return GP_EINPUT;
	if (!gp_yaml_get(m, "name"))
		return gp_yaml_error(doc, m, err, "a tenant without 'name'");
	if (gp_yaml_str(doc, gp_yaml_get(m, "name"), "a tenant's 'name'", &s, err))
		return GP_EINPUT;
	if (!*s || strlen(s) > 256)
		return gp_yaml_error(doc, gp_yaml_get(m, "name"), err,
				     "a tenant's 'name' wants 1 to 256 characters");
	if (gp_tenants_find(t, s) >= 0)
		return gp_yaml_error(doc, gp_yaml_get(m, "name"), err, "tenant '%.64s' is named twice", s);
	v = gp_yaml_get(m, "quota");
	if (!v)
		return gp_yaml_error(doc, m, err, "tenant '%.64s' has no 'quota'", s);
	if (gp_yaml_expect(doc, v, GP_YAML_MAP, "a tenant's 'quota' (a mapping)", err))
		return GP_EINPUT;
	for (i = 0; i < v->n; i++) {
		int k = resource(t, v->keys[i]->scalar);

		if (k < 0)
			return gp_yaml_error(doc, v->keys[i], err, "more than %d quota keys in the file",
					     GP_TENANTS_MAX_RES);
		if (gpus(doc, v->items[i], "a quota (GPUs)", &x->nominal[k], err))
			return GP_EINPUT;
	}
	if ((v = gp_yaml_get(m, "cohort"))) {
		if (gp_yaml_str(doc, v, "'cohort'", &s, err))
			return GP_EINPUT;
		if (!*s || strlen(s) > 256)
			return gp_yaml_error(doc, v, err, "'cohort' wants 1 to 256 characters");
		x->cohort = cohort(t, s);
	}
	if ((v = gp_yaml_get(m, "borrowing_limit")) &&
	    gpus(doc, v, "'borrowing_limit' (GPUs)", &x->borrow_limit, err))
		return GP_EINPUT;
	if ((v = gp_yaml_get(m, "lending_limit")) &&
	    gpus(doc, v, "'lending_limit' (GPUs)", &x->lend_limit, err))
		return GP_EINPUT;
	if ((v = gp_yaml_get(m, "weight")) &&
	    gp_yaml_double(doc, v, "'weight'", 1e-6, 1e6, &x->weight, err))
		return GP_EINPUT;
	x->name = gp_xstrdup(gp_yaml_get(m, "name")->scalar);
	/* by_name stays sorted (insertion: the file is capped) */
	t->n++;
	t->by_name = gp_xrealloc(t->by_name, t->n * sizeof(*t->by_name));
	for (i = t->n - 1; i > 0 && strcmp(t->t[t->by_name[i - 1]].name, x->name) > 0; i--)
		t->by_name[i] = t->by_name[i - 1];
	t->by_name[i] = (int32_t)(t->n - 1);
	return GP_OK;
}

static int from_doc(gp_tenants *t, const gp_yaml_doc *doc, gp_error *err)
{
	const gp_yaml_node *root = doc->root, *list;
	size_t i;

	if (!root)
		return gp_error_set(err, GP_EINPUT, doc->path, 1, 1, "empty tenants file");
	if (gp_yaml_expect(doc, root, GP_YAML_MAP, "the tenants file (a mapping with 'tenants')", err))
		return GP_EINPUT;
	list = gp_yaml_get(root, "tenants");
	if (!list)
		return gp_yaml_error(doc, root, err, "no 'tenants' list");
	if (gp_yaml_expect(doc, list, GP_YAML_SEQ, "'tenants' (a list)", err))
		return GP_EINPUT;
	if (list->n == 0)
		return gp_yaml_error(doc, list, err, "'tenants' is empty");
	if (list->n > GP_TENANTS_MAX)
		return gp_yaml_error(doc, list, err, "more than %d tenants", GP_TENANTS_MAX);
	t->t = gp_xcalloc(list->n, sizeof(*t->t));
	for (i = 0; i < list->n; i++) {
		if (gp_yaml_expect(doc, list->items[i], GP_YAML_MAP, "a tenant (a mapping)", err) ||
		    one(t, doc, list->items[i], err))
			return GP_EINPUT;
	}
	for (i = 0; i < t->n; i++) /* limits are per resource: none past the quota's sum */
		if (t->t[i].lend_limit >= 0 && t->t[i].cohort < 0)
			return gp_error_set(err, GP_EINPUT, doc->path, t->t[i].line, 1,
					    "tenant '%.64s' has a 'lending_limit' but no 'cohort'",
					    t->t[i].name);
	t->path = gp_xstrdup(doc->path ? doc->path : "-");
	return GP_OK;
}

int gp_tenants_parse(const char *text, size_t len, const char *path, gp_tenants *out, gp_error *err)
{
	gp_yaml_doc doc;
	int rc;

	gp_tenants_init(out);
	gp_yaml_doc_init(&doc);
	rc = gp_yaml_parse(text, len, path, 0, &doc, err);
	if (rc == GP_OK)
		rc = from_doc(out, &doc, err);
	gp_yaml_doc_release(&doc);
	if (rc)
		gp_tenants_release(out);
	return rc;
}

int gp_tenants_load(const char *path, gp_tenants *out, gp_error *err)
{
	gp_yaml_doc doc;
	int rc;

	gp_tenants_init(out);
	gp_yaml_doc_init(&doc);
	rc = gp_yaml_load(path, GP_TENANTS_MAX_BYTES, 0, &doc, err);
	if (rc == GP_OK)
		rc = from_doc(out, &doc, err);
	gp_yaml_doc_release(&doc);
	if (rc)
		gp_tenants_release(out);
	return rc;
}
