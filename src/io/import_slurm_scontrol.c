/* Import, Slurm: scontrol show node and scontrol show job -d. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/util/hostlist.h"
#include "import_slurm_int.h"

/* ---- scontrol show node ---- */

typedef struct node_rec {
	gp_inv_node *n;
	int has_used, cfg_gpu, alloc_gpu_seen, state_alloc, state_idle;
	long alloc_gpus;
	int line;
} node_rec;

static void node_finish(gp_inventory *inv, const char *file, node_rec *r)
{
	gp_inv_node *n = r->n;

	if (!n)
		return;
	if (n->ngpus < 0)
		n->ngpus = 0;
	if (!r->has_used) {
		if (r->alloc_gpu_seen) {
			n->used = (int)r->alloc_gpus;
		} else if (r->cfg_gpu) {
			n->used = 0;   /* TRES counts GPUs and none is allocated */
		} else if (n->ngpus > 0) {
			if (r->state_alloc) {
				n->used = n->ngpus;
			} else if (r->state_idle) {
				n->used = 0;
			} else {
				n->used = 0;
				gp_inv_warn(inv, file, r->line,
					    "node '%s': GPU use unknown (no GresUsed, and AllocTRES "
					    "does not count GPUs); taken as free", n->name);
			}
		}
	}
	if (n->used > n->ngpus)
		n->used = n->ngpus;
	r->n = NULL;
}

/* One KEY=VALUE of a node record onto r; other keys are left alone. */
static int node_key(gp_inventory *inv, node_rec *r, const slurm_tok *t, const char *file,
		    gp_error *err)
{
	int rc;

	if (gp_slurm_keq(t, "CPUTot")) {
		long v;

		if ((rc = gp_slurm_tok_long(file, t, GP_TOPO_MAX_CPUS, &v, err)))
			return rc;
		r->n->cpus = (int)v;
	} else if (gp_slurm_keq(t, "CPUAlloc")) {
		long v;

		if ((rc = gp_slurm_tok_long(file, t, GP_TOPO_MAX_CPUS, &v, err)))
			return rc;
		r->n->cpu_alloc = (int)v;
	} else if (gp_slurm_keq(t, "Sockets") || gp_slurm_keq(t, "CoresPerSocket") ||
		   gp_slurm_keq(t, "ThreadsPerCore")) {
		long v;

		if ((rc = gp_slurm_tok_long(file, t, GP_TOPO_MAX_CPUS, &v, err)))
			return rc;
		if (gp_slurm_keq(t, "Sockets"))
			r->n->sockets = (int)v;
		else if (gp_slurm_keq(t, "CoresPerSocket"))
			r->n->cores_per_socket = (int)v;
		else
			r->n->threads_per_core = (int)v;
	} else if (gp_slurm_keq(t, "RealMemory") || gp_slurm_keq(t, "AllocMem")) {
		long v;

		if ((rc = gp_slurm_tok_long(file, t, GP_IMPORT_MAX_MEM_MIB, &v, err)))
			return rc;
		if (gp_slurm_keq(t, "RealMemory"))
			r->n->mem_mib = v;
		else
			r->n->mem_alloc_mib = v;
	} else if (gp_slurm_keq(t, "Gres")) {
		if ((rc = gp_slurm_apply_gres(inv, r->n, t, file, 0, err)))
			return rc;
	} else if (gp_slurm_keq(t, "GresUsed")) {
		if ((rc = gp_slurm_apply_gres(inv, r->n, t, file, 1, err)))
			return rc;
		r->has_used = 1;
	} else if (gp_slurm_keq(t, "CfgTRES")) {
		char type[96] = "";
		long g = gp_slurm_tres_gpus(t->v, t->vl, type, sizeof(type));

		if (g >= 0) {
			r->cfg_gpu = 1;
			if (r->n->ngpus <= 0)
				r->n->ngpus = (int)g;
			if (!r->n->gpu_type && type[0])
				gp_inv_set_str(&r->n->gpu_type, type, strlen(type));
		}
	} else if (gp_slurm_keq(t, "AllocTRES")) {
		long g = gp_slurm_tres_gpus(t->v, t->vl, NULL, 0);

		if (g >= 0) {
			r->alloc_gpu_seen = 1;
			r->alloc_gpus = g;
		}
	} else if (gp_slurm_keq(t, "State")) {
		r->n->state = gp_slurm_state(t->v, t->vl);
		r->n->conf_state = 0;
		gp_inv_set_str(&r->n->state_text, t->v, t->vl);
		r->state_alloc = t->vl >= 5 && !strncasecmp(t->v, "ALLOC", 5);
		r->state_idle = t->vl >= 4 && !strncasecmp(t->v, "IDLE", 4);
	} else if (gp_slurm_keq(t, "Reason")) {
		gp_inv_set_str(&r->n->reason, t->v, t->vl);
	} else if (gp_slurm_keq(t, "Partitions")) {
		if (t->vl)
			gp_inv_set_str(&r->n->partitions, t->v, t->vl);
	}
	return GP_OK;
}

int gp_slurm_read_scontrol_node(gp_inventory *inv, const char *text, size_t len,
				const char *file, gp_error *err)
{
	slurm_lexer x;
	slurm_tok t, prev = { 0 };
	node_rec r = { 0 };
	int rc, have_prev = 0, nodes = 0;

	gp_slurm_lex_init(&x, text, len, 0);
	while (gp_slurm_lex_next(&x, &t)) {
		if (t.kl == 0) {
			/* a word without '=' continues the previous value
			 * ("OS=Linux 5.15 #1 SMP", "Reason=bad dimm [root@...]") */
			if (!have_prev || !r.n)
				return gp_error_set(err, GP_EINPUT, file, t.line, t.kcol,
						    "expected KEY=VALUE, found '%.*s'",
						    (int)(t.vl > 40 ? 40 : t.vl), t.v);
			if (prev.line == t.line && gp_slurm_keq(&prev, "Reason") && r.n->reason) {
				gp_inv_set_str(&r.n->reason, prev.v, (size_t)(t.v + t.vl - prev.v));
				prev.vl = (size_t)(t.v + t.vl - prev.v);
			}
			continue;
		}
		prev = t;
		have_prev = 1;
		if (gp_slurm_keq(&t, "NodeName")) {
			node_finish(inv, file, &r);
			if (t.vl == 0)
				return gp_slurm_tok_err(file, &t, 0, err, "%s",
							"NodeName: empty name");
			r.n = gp_inv_node_get(inv, t.v, t.vl, file, t.line, t.kcol, err);
			if (!r.n)
				return GP_EINPUT;
			r.n->kinds |= 1u << GP_IMPORT_SCONTROL_NODE;
			r.has_used = r.cfg_gpu = r.alloc_gpu_seen = r.state_alloc = r.state_idle = 0;
			r.alloc_gpus = 0;
			r.line = t.line;
			nodes++;
			continue;
		}
		if (!r.n)
			return gp_slurm_tok_err(file, &t, 1, err, "%s",
						"expected 'NodeName=' first");
		if ((rc = node_key(inv, &r, &t, file, err)))
			return rc;
	}
	node_finish(inv, file, &r);
	if (!nodes)
		return gp_error_set(err, GP_EINPUT, file, 0, 0, "no 'NodeName=' record");
	return GP_OK;
}

/* ---- scontrol show job -d ---- */

typedef struct job_rec {
	char id[64];
	int line;
	int holds;             /* the job state holds resources */
	long tres_gpus, num_nodes;
	int have_detail;
	const char *nodelist;
	size_t nodelist_len;
	int nodelist_line, nodelist_col;
} job_rec;

typedef struct detail {
	slurm_tok nodes, cpus, mem, gres;
	int have_nodes, have_cpus, have_mem, have_gres;
} detail;

static int detail_flush(gp_inventory *inv, const char *file, const job_rec *j, detail *d,
			gp_error *err)
{
	gp_hostlist h;
	gres_item it[MAX_GRES];
	gres_sum s;
	int ni = 0, rc, *cpus = NULL, ncpus = 0;
	int64_t mem = 0;
	size_t i;

	if (!d->have_nodes || !j->holds) {
		memset(d, 0, sizeof(*d));
		return GP_OK;
	}
	gp_hostlist_init(&h);
	if ((rc = gp_hostlist_expand(d->nodes.v, d->nodes.vl, &h, file, d->nodes.line,
				     d->nodes.vcol, err)))
		return rc;
	if (d->have_gres &&
	    (rc = gp_slurm_parse_gres(d->gres.v, d->gres.vl, file, d->gres.line, d->gres.vcol, it, &ni, err))) {
		gp_hostlist_release(&h);
		return rc;
	}
	gp_slurm_sum_gres(it, ni, &s);
	if (d->have_cpus && d->cpus.vl &&
	    gp_cpulist_parse(d->cpus.v, d->cpus.vl, &cpus, &ncpus)) {
		/* scontrol cuts very long CPU_IDs lists ("...,112,115-") */
		gp_inv_warn(inv, file, d->cpus.line, "job %s: CPU_IDs '%.*s' is not a whole CPU "
			    "list (cut off?); CPUs left out", j->id,
			    (int)(d->cpus.vl > 24 ? 24 : d->cpus.vl),
			    d->cpus.v + (d->cpus.vl > 24 ? d->cpus.vl - 24 : 0));
		cpus = NULL;
		ncpus = 0;
	}
	if (d->have_mem && d->mem.vl) {
		mem = gp_import_mem_mib(d->mem.v, d->mem.vl, 1);
		if (mem < 0) {
			free(cpus);
			gp_hostlist_release(&h);
			return gp_error_set(err, GP_EINPUT, file, d->mem.line, d->mem.vcol,
					    "Mem: expected MiB (at most %lld), found '%.*s'",
					    (long long)GP_IMPORT_MAX_MEM_MIB, (int)d->mem.vl, d->mem.v);
		}
	}
	for (i = 0; i < h.n; i++) {
		gp_inv_alloc *a = gp_inv_alloc_add(inv, j->id, h.names[i], file, d->nodes.line);

		a->ngpus = s.gpus;
		a->gpus_known = s.idx_known;
		if (s.idx_known) {
			a->gpus = s.idx;
			a->ngpus = __builtin_popcountll(s.idx);
		}
		if (ncpus) {
			a->cpus = gp_xmalloc((size_t)ncpus * sizeof(int));
			memcpy(a->cpus, cpus, (size_t)ncpus * sizeof(int));
			a->ncpus = ncpus;
		}
		a->mem_mib = mem;
	}
	free(cpus);
	gp_hostlist_release(&h);
	memset(d, 0, sizeof(*d));
	return GP_OK;
}

static int job_finish(gp_inventory *inv, const char *file, job_rec *j, detail *d,
		      gp_error *err)
{
	int rc;

	if (!j->id[0])
		return GP_OK;
	if ((rc = detail_flush(inv, file, j, d, err)))
		return rc;
	if (j->holds && !j->have_detail && j->nodelist && j->tres_gpus > 0) {
		gp_hostlist h;
		size_t i;

		gp_hostlist_init(&h);
		if ((rc = gp_hostlist_expand(j->nodelist, j->nodelist_len, &h, file,
					     j->nodelist_line, j->nodelist_col, err)))
			return rc;
		if (h.n && j->tres_gpus % (long)h.n == 0) {
			for (i = 0; i < h.n; i++) {
				gp_inv_alloc *a = gp_inv_alloc_add(inv, j->id, h.names[i], file, j->line);

				a->ngpus = (int)(j->tres_gpus / (long)h.n);
			}
			gp_inv_warn(inv, file, j->line, "job %s: no per-node detail (run 'scontrol "
				    "show job -d'); GPU indices guessed", j->id);
		} else {
			gp_inv_warn(inv, file, j->line, "job %s: %ld GPUs over %zu node(s) without "
				    "per-node detail; left out", j->id, j->tres_gpus, h.n);
		}
		gp_hostlist_release(&h);
	}
	memset(j, 0, sizeof(*j));
	return GP_OK;
}

int gp_slurm_read_scontrol_job(gp_inventory *inv, const char *text, size_t len,
			       const char *file, gp_error *err)
{
	static const char *const holding[] = {
		"RUNNING", "SUSPENDED", "COMPLETING", "CONFIGURING", "STAGE_OUT", "RESIZING",
		"SIGNALING", NULL
	};
	slurm_lexer x;
	slurm_tok t;
	job_rec j;
	detail d;
	int rc, jobs = 0;

	memset(&j, 0, sizeof(j));
	memset(&d, 0, sizeof(d));
	gp_slurm_lex_init(&x, text, len, 0);
	while (gp_slurm_lex_next(&x, &t)) {
		if (t.kl == 0)
			continue;   /* words of Command=..., Reason=... */
		if (gp_slurm_keq(&t, "JobId")) {
			if ((rc = job_finish(inv, file, &j, &d, err)))
				return rc;
			if (t.vl == 0 || t.vl >= sizeof(j.id))
				return gp_slurm_tok_err(file, &t, 0, err, "%s", "JobId: bad id");
			memcpy(j.id, t.v, t.vl);
			j.line = t.line;
			jobs++;
			continue;
		}
		if (!j.id[0])
			return gp_slurm_tok_err(file, &t, 1, err, "%s", "expected 'JobId=' first");
		if (gp_slurm_keq(&t, "JobState")) {
			int i;

			for (i = 0; holding[i]; i++)
				if (t.vl == strlen(holding[i]) && !memcmp(t.v, holding[i], t.vl))
					j.holds = 1;
		} else if (gp_slurm_keq(&t, "NodeList")) {
			if (!gp_slurm_is_null(t.v, t.vl)) {
				j.nodelist = t.v;
				j.nodelist_len = t.vl;
				j.nodelist_line = t.line;
				j.nodelist_col = t.vcol;
			}
		} else if (gp_slurm_keq(&t, "TRES") || gp_slurm_keq(&t, "AllocTRES")) {
			long g = gp_slurm_tres_gpus(t.v, t.vl, NULL, 0);

			if (g > 0)
				j.tres_gpus = g;
		} else if (gp_slurm_keq(&t, "Nodes")) {
			if ((rc = detail_flush(inv, file, &j, &d, err)))
				return rc;
			d.nodes = t;
			d.have_nodes = 1;
			j.have_detail = 1;
		} else if (gp_slurm_keq(&t, "CPU_IDs")) {
			d.cpus = t;
			d.have_cpus = 1;
		} else if (gp_slurm_keq(&t, "Mem") && d.have_nodes) {
			d.mem = t;
			d.have_mem = 1;
		} else if ((gp_slurm_keq(&t, "GRES") || gp_slurm_keq(&t, "GRES_IDX")) &&
			   d.have_nodes) {
			d.gres = t;
			d.have_gres = 1;
		}
	}
	if ((rc = job_finish(inv, file, &j, &d, err)))
		return rc;
	if (!jobs)
		return gp_error_set(err, GP_EINPUT, file, 0, 0, "no 'JobId=' record");
	return GP_OK;
}
