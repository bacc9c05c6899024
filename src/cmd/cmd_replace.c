/* gpuplan replace: the live worker-replacement decision for an operator.  A member
 * of a running job failed: which idle node (or GPUs) replaces it, or does
 * the ring shrink?  Reads the cluster, the allocation state and the job
 * spec; prints the candidates and the decision; --commit writes the new
 * state atomically. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opt.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/jobspec.h"
#include "gpuplan/io/state.h"
#include "gpuplan/place/replace.h"
#include "gpuplan/report/report.h"
#include "gpuplan/util/util.h"

enum { O_CLUSTER = 'c', O_STATE = 256, O_FAILED, O_ITER, O_JSON, O_COMMIT, O_LOCK };

static const gp_opt replace_opts[] = {
	GP_OPT_CLUSTER(O_CLUSTER),
	{ .name = "state", .key = O_STATE, .type = GP_OT_STR, .arg = "FILE",
	  .help = "allocation state holding the job" },
	{ .name = "failed", .key = O_FAILED, .type = GP_OT_STR, .arg = "NODE[:GPUS]",
	  .help = "the failed node, or some of its GPUs (0,2 or 0-3);\n"
		  "one per call (several nodes: one call each, with\n"
		  "--commit, so each decision sees the last)" },
	{ .name = "iteration-s", .key = O_ITER, .type = GP_OT_DURATION, .arg = "S",
	  .min = 1e-9, .max = 1e9, .unit = "s",
	  .help = "the job's measured average iteration time before the\n"
		  "failure (default: predicted by the same model)" },
	{ .name = "commit", .key = O_COMMIT, .type = GP_OT_FLAG,
	  .help = "write the new state back to --state FILE (atomically,\n"
		  "under an exclusive lock on it, as place --commit): the\n"
		  "lost GPUs leave the job and stay down, the replacement\n"
		  "joins it, a failed whole node is marked down" },
	GP_OPT_LOCK_TIMEOUT(O_LOCK),
	{ .name = "json", .key = O_JSON, .type = GP_OT_FLAG,
	  .help = "machine-readable output (keys sorted)" },
	{ 0 },
};

const gp_cmd_desc gp_desc_replace = {
	.name = "replace",
	.synopsis = "[-c CLUSTER] --state FILE --failed NODE[:GPUS]\n"
		    "        [--iteration-s S] [--json] [--commit [--lock-timeout S]]\n"
		    "        JOB.yaml",
	.min_args = 1, .max_args = 1, .operands = "expected one JOB.yaml",
	.about = "A member of a running job failed: choose its replacement by the worker-replacement\n"
		 "rule (the weakest idle candidate, by peak FLOPS, whose predicted iteration\n"
		 "time stays within the job's average; else the fastest; with no candidate,\n"
		 "shrink the ring to the survivors).  The job's `name` is its entry in the\n"
		 "state file.  Exit 0 when replaced or shrunk, 1 when nothing can be done.\n",
	.opts = replace_opts,
};

/* "node" or "node:0,2-3" -> node index and GPU mask (0 = whole node). */
static int parse_failed(const gp_cluster *c, const char *spec, int *node, uint64_t *mask)
{
	const char *colon = strrchr(spec, ':');
	char name[256];
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);

	*mask = 0;
	if (n == 0 || n >= sizeof(name))
		return gp_cli_usage_error("replace", "--failed wants NODE or NODE:GPUS, not '%s'", spec);
	memcpy(name, spec, n);
	name[n] = '\0';
	*node = gp_cluster_find_node(c, name);
	if (*node < 0)
		return gp_cli_fail(GP_EINPUT, "--failed: unknown node '%s'", name);
	if (colon) {
		const char *p = colon + 1;
		int ng = c->nodes[*node].ngpus;

		if (!*p)
			return gp_cli_usage_error("replace", "--failed %s: no GPU after ':'", spec);
		while (*p) {
			char buf[32];
			const char *comma = strchr(p, ','), *dash;
			size_t len = comma ? (size_t)(comma - p) : strlen(p);
			long a, b;

			if (len == 0 || len >= sizeof(buf))
				return gp_cli_usage_error("replace", "--failed %s: bad GPU list", spec);
			memcpy(buf, p, len);
			buf[len] = '\0';
			dash = strchr(buf, '-');
			if (dash) {
				buf[dash - buf] = '\0';
				if (gp_parse_long(buf, 0, ng - 1, &a) || gp_parse_long(dash + 1, 0, ng - 1, &b) ||
				    b < a)
					return gp_cli_fail(GP_EINPUT, "--failed %s: node '%s' has GPUs 0-%d",
							   spec, name, ng - 1);
			} else {
				if (gp_parse_long(buf, 0, ng - 1, &a))
					return gp_cli_fail(GP_EINPUT, "--failed %s: node '%s' has GPUs 0-%d",
							   spec, name, ng - 1);
				b = a;
			}
			for (; a <= b; a++)
				*mask |= 1ull << a;
			p += len;
			if (*p == ',')
				p++;
		}
		/* Every GPU of the node named: the whole node. */
		if (*mask == (ng >= 64 ? ~0ull : (1ull << ng) - 1))
			*mask = 0;
	}
	return GP_OK;
}

static json_t *gpus_json(const int *g, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_integer(g[i]));
	return a;
}

static json_t *num(double x, int decimals)
{
	return json_real(gp_report_round(x, decimals));
}

static json_t *result_json(const gp_cluster *c, const gp_job *j, const gp_replace_result *r,
			   int whole, int committed)
{
	json_t *o = json_object(), *f = json_object(), *cands = json_array(), *rep = json_array();
	size_t i;

	json_object_set_new(o, "job", json_string(j->id));
	json_object_set_new(o, "status", json_string(gp_replace_status_name(r->status)));
	json_object_set_new(f, "node", json_string(c->nodes[r->failed_node].name));
	json_object_set_new(f, "gpus", gpus_json(r->failed_gpus, r->nfailed));
	json_object_set_new(f, "whole_node", json_boolean(whole));
	json_object_set_new(o, "failed", f);
	if (r->status == GP_REPLACE_REPLACED) {
		json_t *p = json_object();

		json_object_set_new(p, "node", json_string(c->nodes[r->chosen.node].name));
		json_object_set_new(p, "gpus", gpus_json(r->chosen.gpus, r->chosen.ngpus));
		json_array_append_new(rep, p);
	}
	json_object_set_new(o, "replacement", rep);
	for (i = 0; i < r->ncands; i++) {
		const gp_replace_cand *cd = &r->cands[i];
		json_t *p = json_object();

		json_object_set_new(p, "node", json_string(c->nodes[cd->node].name));
		json_object_set_new(p, "gpus", gpus_json(cd->gpus, cd->ngpus));
		json_object_set_new(p, "iteration_s", num(cd->iteration_s, 6));
		json_object_set_new(p, "peak_tflops", num(cd->peak_tflops, 3));
		json_object_set_new(p, "eligible", json_boolean(cd->eligible));
		json_array_append_new(cands, p);
	}
	json_object_set_new(o, "candidates", cands);
	json_object_set_new(o, "iteration_s_before", num(r->iteration_s_before, 6));
	json_object_set_new(o, "iteration_s_after", r->status == GP_REPLACE_NONE ? json_null()
					: num(r->iteration_s_after, 6));
	json_object_set_new(o, "copy_s", num(r->copy_s, 6));
	json_object_set_new(o, "copy_from", r->copy_from >= 0 ?
			    json_string(c->nodes[r->copy_from].name) : json_null());
	json_object_set_new(o, "state_bytes", num(r->state_bytes, 0));
	json_object_set_new(o, "model", json_string(r->modelled ? "perf" : "relative-peak"));
	json_object_set_new(o, "reason", json_string(r->reason));
	json_object_set_new(o, "committed", json_boolean(committed));
	return o;
}

static void print_text(const gp_cluster *c, const gp_job *j, const gp_replace_result *r,
		       int whole, int committed)
{
	char b[64];
	size_t i;
	int g;
	gp_sbuf name;

	/* the job's name as the terminal should show it (no control bytes) */
	gp_sbuf_init(&name);
	gp_sbuf_add_printable(&name, j->id);
	printf("job %s: %s, %d GPU(s); failed: %s", name.buf ? name.buf : "", gp_job_type_name(j->type),
	       j->gpus, c->nodes[r->failed_node].name);
	gp_sbuf_release(&name);
	if (whole)
		printf(" (whole node)");
	printf(", job GPUs");
	for (g = 0; g < r->nfailed; g++)
		printf("%s%d", g ? "," : " ", r->failed_gpus[g]);
	printf("\n");
	printf("iteration before: %.6g s (%s)\n", r->iteration_s_before,
	       r->modelled ? "slowest member's compute + max(P/up, P/down), perf-model links"
			   : "no model size: compute relative to peak FLOPS, no communication");
	if (r->ncands) {
		gp_table t;
		size_t row;
		gp_sbuf sb;

		gp_table_init(&t, 6);
		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "candidate");
		gp_table_set(&t, row, 1, "gpus");
		gp_table_set(&t, row, 2, "iteration_s");
		gp_table_set(&t, row, 3, "peak TFLOPS");
		gp_table_set(&t, row, 4, "eligible");
		gp_table_set(&t, row, 5, " ");
		for (i = 0; i < r->ncands; i++) {
			const gp_replace_cand *cd = &r->cands[i];

			gp_sbuf_init(&sb);
			gp_sbuf_add_ranges(&sb, cd->gpus, cd->ngpus);
			row = gp_table_row(&t);
			gp_table_set(&t, row, 0, "%s", c->nodes[cd->node].name);
			gp_table_set(&t, row, 1, "%s", sb.buf);
			gp_table_set(&t, row, 2, "%.6g", cd->iteration_s);
			gp_table_set(&t, row, 3, "%s", gp_report_num(b, sizeof(b), cd->peak_tflops, 1));
			gp_table_set(&t, row, 4, "%s", cd->eligible ? "yes" : "no");
			gp_table_set(&t, row, 5, "%s", r->status == GP_REPLACE_REPLACED &&
				     cd->node == r->chosen.node ? "<- chosen" : "");
			gp_sbuf_release(&sb);
		}
		gp_sbuf_init(&sb);
		gp_table_render(&t, "  ", &sb);
		printf("candidates (%zu):\n%s", r->ncands, sb.buf);
		gp_sbuf_release(&sb);
		gp_table_release(&t);
	} else {
		printf("candidates: none\n");
	}
	printf("status: %s: %s\n", gp_replace_status_name(r->status), r->reason);
	if (r->status == GP_REPLACE_REPLACED) {
		printf("replacement: %s GPUs", c->nodes[r->chosen.node].name);
		for (g = 0; g < r->chosen.ngpus; g++)
			printf("%s%d", g ? "," : " ", r->chosen.gpus[g]);
		printf("\n");
	}
	if (r->status != GP_REPLACE_NONE)
		printf("iteration after: %.6g s\n", r->iteration_s_after);
	if (r->status == GP_REPLACE_REPLACED)
		printf("state copy: %.4g GB (parameters + optimizer state) from %s: %.4g s\n",
		       r->state_bytes / 1e9, r->copy_from >= 0 ? c->nodes[r->copy_from].name : "-",
		       r->copy_s);
	if (committed)
		printf("state file updated\n");
}

/* Remove the lost GPUs from the job's entries, add the replacement's (into
 * the job's entry on a node where it has one), mark a failed whole node
 * down, or else the failed GPUs (they stay down: nothing is placed there). */
static void update_state(gp_state *s, const gp_job *j, const gp_replace_result *r, int whole)
{
	uint64_t lost = 0;
	size_t i, w = 0;
	int g;

	for (g = 0; g < r->nfailed; g++)
		lost |= 1ull << r->failed_gpus[g];
	for (i = 0; i < s->n; i++) {
		gp_state_entry *e = &s->entries[i];

		if (!strcmp(e->job, j->id) && e->node == r->failed_node) {
			int keep = 0;

			for (g = 0; g < e->ngpus; g++)
				if (!(lost >> e->gpus[g] & 1))
					e->gpus[keep++] = e->gpus[g];
			e->ngpus = keep;
			if (keep == 0) {
				free(e->job);
				free(e->cpus);
				continue;
			}
		}
		s->entries[w++] = *e;
	}
	s->n = w;
	if (r->status == GP_REPLACE_REPLACED)
		gp_state_merge_placement(s, j->id, &r->added);
	if (!whole)
		for (g = 0; g < r->nfailed; g++)
			gp_state_add_down_gpu(s, r->failed_node, r->failed_gpus[g]);
	if (whole) {
		for (i = 0; i < s->ndown; i++)
			if (s->down[i] == r->failed_node)
				return;
		GP_GROW(s->down, s->capdown, s->ndown + 1);
		s->down[s->ndown++] = r->failed_node;
	}
}

int cmd_replace(int argc, char **argv)
{
	const char *cluster_path = NULL, *state_path = NULL, *failed = NULL;
	gp_error err = GP_ERROR_INIT;
	gp_cluster cl;
	gp_alloc alloc;
	gp_state st;
	gp_job job;
	gp_placement pl;
	gp_replace_result res;
	gp_replace_opts ro = { 0, 1 };
	gp_rng rng;
	int json = 0, commit = 0, c, rc = GP_OK, node = -1, whole;
	double lock_timeout = 60;
	gp_txn txn = { { -1 }, NULL, 0 };
	gp_opt_state o;
	const char *job_path;
	uint64_t mask;

	gp_opt_begin(&o, &gp_desc_replace, argc, argv);
	while ((c = gp_opt_next(&o)) > 0) {
		switch (c) {
		case O_CLUSTER: cluster_path = o.arg; break;
		case O_STATE: state_path = o.arg; break;
		case O_FAILED:
			if (failed) {
				gp_opt_end(&o);
				return gp_opt_bad(&o, "one --failed per call ('%s' and '%s'): decide the "
						  "first with --commit, then run replace for the next",
						  failed, o.arg);
			}
			failed = o.arg;
			break;
		case O_ITER: ro.before_s = o.v; break;
		case O_JSON: json = 1; break;
		case O_COMMIT: commit = 1; break;
		case O_LOCK: lock_timeout = o.v; break;
		}
	}
	job_path = o.nargs ? o.args[0] : NULL;
	gp_opt_end(&o);
	if (c < 0)
		return o.status;
	if (!state_path)
		return gp_cli_usage_error("replace", "--state FILE is required");
	if (!failed)
		return gp_cli_usage_error("replace", "--failed NODE[:GPUS] is required");
	gp_cluster_init(&cl);
	gp_state_init(&st);
	memset(&alloc, 0, sizeof(alloc));
	gp_placement_init(&pl);
	gp_replace_result_init(&res);
	gp_job_init(&job);
	if (gp_cluster_load(cluster_path ? cluster_path : gp_cli_default_cluster(), &cl, &err)) {
		rc = gp_cli_report(&err);
		goto out;
	}
	if ((rc = parse_failed(&cl, failed, &node, &mask)) != GP_OK)
		goto out;
	whole = mask == 0;
	gp_alloc_init(&alloc, &cl);
	/* --commit reads, decides and writes in one transaction (under the
	 * state file's lock), as place --commit */
	if (gp_jobspec_load(job_path, &job, &err) ||
	    (commit ? gp_state_begin(&txn, state_path, 0, lock_timeout, &cl, &alloc, &st, &err)
		    : gp_state_load(state_path, &cl, &alloc, &st, &err))) {
		rc = gp_cli_report(&err);
		goto out;
	}
	if (!gp_replace_job_placement(&st, &job, &pl)) {
		rc = gp_cli_fail(GP_EINPUT, "%s: job '%s' has no allocation in %s", job_path, job.id,
				 state_path);
		goto out;
	}
	if (whole)
		gp_alloc_set_state(&alloc, node, GP_NODE_DOWN);
	gp_rng_seed(&rng, 1);
	{
		gp_policy_ctx ctx = { &cl, &alloc, &rng, NULL, NULL };

		ctx.cache = gp_place_cache_new(&cl);
		rc = gp_replace_decide(&ctx, &job, &pl, node, mask, &ro, &res, &err);
		gp_place_cache_free(ctx.cache);
		if (rc != GP_OK) {
			rc = gp_cli_report(&err);
			goto out;
		}
	}
	if (commit && res.status != GP_REPLACE_NONE) {
		update_state(&st, &job, &res, whole);
		if (gp_state_commit(&txn, &cl, &st, &err)) {
			rc = gp_cli_report(&err);
			goto out;
		}
	}
	if (json) {
		json_t *jo = result_json(&cl, &job, &res, whole, commit && res.status != GP_REPLACE_NONE);

		if (json_dumpf(jo, stdout, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(10)))
			rc = GP_EIO;
		fputc('\n', stdout);
		json_decref(jo);
	} else {
		print_text(&cl, &job, &res, whole, commit && res.status != GP_REPLACE_NONE);
	}
	if (rc == GP_OK && res.status == GP_REPLACE_NONE)
		rc = GP_NO;
out:
	gp_txn_abort(&txn);
	gp_job_release(&job);
	gp_replace_result_release(&res);
	gp_placement_release(&pl);
	gp_state_release(&st);
	gp_alloc_release(&alloc);
	gp_cluster_release(&cl);
	return rc;
}
