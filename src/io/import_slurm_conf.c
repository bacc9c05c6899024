/* Import, Slurm: slurm.conf (NodeName, PartitionName) and gres.conf. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/util/hostlist.h"
#include "import_slurm_int.h"

/* ---- slurm.conf ---- */

typedef struct conf_node {
	long cpus, boards, sockets, spb, cores, threads, mem;
	slurm_tok gres, state;
	int have_gres, have_state;
} conf_node;

static int conf_node_line(gp_inventory *inv, slurm_lexer *x, const slurm_tok *first, conf_node *def,
			  const char *file, gp_error *err)
{
	conf_node c = *def;
	slurm_tok t;
	int rc, isdef = first->vl == 7 && !strncasecmp(first->v, "DEFAULT", 7);
	gp_hostlist h;
	size_t i;
	long sockets;

	while (gp_slurm_lex_tok(x, &t) > 0) {
		long v;

		gp_slurm_unquote(&t);
		if (t.kl == 0)
			return gp_slurm_tok_err(file, &t, 1, err, "expected KEY=VALUE, found '%s'", "a word");
		if (gp_slurm_keq(&t, "CPUs") || gp_slurm_keq(&t, "Procs") || gp_slurm_keq(&t, "Boards") || gp_slurm_keq(&t, "Sockets") ||
		    gp_slurm_keq(&t, "SocketsPerBoard") || gp_slurm_keq(&t, "CoresPerSocket") ||
		    gp_slurm_keq(&t, "ThreadsPerCore") || gp_slurm_keq(&t, "RealMemory")) {
			long max = gp_slurm_keq(&t, "RealMemory") ? GP_IMPORT_MAX_MEM_MIB : GP_TOPO_MAX_CPUS;

			if ((rc = gp_slurm_tok_long(file, &t, max, &v, err)))
				return rc;
			if (gp_slurm_keq(&t, "CPUs") || gp_slurm_keq(&t, "Procs"))
				c.cpus = v;
			else if (gp_slurm_keq(&t, "Boards"))
				c.boards = v;
			else if (gp_slurm_keq(&t, "Sockets"))
				c.sockets = v;
			else if (gp_slurm_keq(&t, "SocketsPerBoard"))
				c.spb = v;
			else if (gp_slurm_keq(&t, "CoresPerSocket"))
				c.cores = v;
			else if (gp_slurm_keq(&t, "ThreadsPerCore"))
				c.threads = v;
			else
				c.mem = v;
		} else if (gp_slurm_keq(&t, "Gres")) {
			c.gres = t;
			c.have_gres = 1;
		} else if (gp_slurm_keq(&t, "State")) {
			c.state = t;
			c.have_state = 1;
		}
	}
	if (isdef) {
		*def = c;
		return GP_OK;
	}
	/* each factor is at most GP_TOPO_MAX_CPUS: the products fit a long */
	sockets = c.sockets ? c.sockets : c.spb ? c.spb * (c.boards ? c.boards : 1) : 0;
	if (sockets * c.cores * (c.threads ? c.threads : 1) > GP_TOPO_MAX_CPUS)
		return gp_error_set(err, GP_EINPUT, file, first->line, first->kcol,
				    "NodeName=%.*s: %ld sockets x %ld cores x %ld threads is above "
				    "the %d-CPU limit", (int)first->vl, first->v, sockets, c.cores,
				    c.threads ? c.threads : 1, GP_TOPO_MAX_CPUS);
	gp_hostlist_init(&h);
	if ((rc = gp_hostlist_expand(first->v, first->vl, &h, file, first->line, first->vcol, err)))
		return rc;
	for (i = 0; i < h.n; i++) {
		gp_inv_node *n = gp_inv_node_get(inv, h.names[i], strlen(h.names[i]), file,
						 first->line, first->kcol, err);
		int from_sc;

		if (!n) {
			gp_hostlist_release(&h);
			return GP_EINPUT;
		}
		from_sc = (n->kinds >> GP_IMPORT_SCONTROL_NODE) & 1;

		n->kinds |= 1u << GP_IMPORT_SLURM_CONF;
		if (from_sc)
			continue;   /* scontrol says what is, the file what was meant */
		if (sockets)
			n->sockets = (int)sockets;
		if (c.cores)
			n->cores_per_socket = (int)c.cores;
		if (c.threads)
			n->threads_per_core = (int)c.threads;
		if (c.cpus)
			n->cpus = (int)c.cpus;
		else if (sockets && c.cores)
			n->cpus = (int)(sockets * c.cores * (c.threads ? c.threads : 1));
		if (c.mem)
			n->mem_mib = c.mem;
		if (c.have_gres && (rc = gp_slurm_apply_gres(inv, n, &c.gres, file, 0, err))) {
			gp_hostlist_release(&h);
			return rc;
		}
		if (!c.have_gres && n->ngpus < 0 && !n->gres_seen)
			n->ngpus = 0;   /* no Gres= on a NodeName line: no GPUs */
		if (c.have_state) {
			n->state = gp_slurm_state(c.state.v, c.state.vl);
			if (c.state.vl == 7 && !strncasecmp(c.state.v, "UNKNOWN", 7))
				n->state = GP_NODE_UP;
			n->conf_state = 1;
			if (n->state != GP_NODE_UP)
				gp_inv_set_str(&n->state_text, c.state.v, c.state.vl);
		}
	}
	gp_hostlist_release(&h);
	return GP_OK;
}

static int conf_partition_line(gp_inventory *inv, slurm_lexer *x, const slurm_tok *first,
			       const char *file, gp_error *err)
{
	slurm_tok t, nodes = { 0 };
	int have = 0, rc;
	char pname[128];
	gp_hostlist h;
	size_t i;
	const char **missing;
	size_t nmissing = 0;

	snprintf(pname, sizeof(pname), "%.*s", (int)first->vl, first->v);
	while (gp_slurm_lex_tok(x, &t) > 0)
		if (gp_slurm_keq(&t, "Nodes")) {
			nodes = t;
			have = 1;
		}
	if (!have || !strcasecmp(pname, "DEFAULT"))
		return GP_OK;
	gp_hostlist_init(&h);
	if (nodes.vl == 3 && !strncasecmp(nodes.v, "ALL", 3)) {
		for (i = 0; i < inv->n; i++)
			gp_hostlist_push(&h, inv->nodes[i].name);
	} else if ((rc = gp_hostlist_expand(nodes.v, nodes.vl, &h, file, nodes.line, nodes.vcol,
					    err))) {
		return rc;
	}
	missing = gp_xcalloc(h.n + 1, sizeof(*missing));
	for (i = 0; i < h.n; i++) {
		gp_inv_node *n = gp_inv_node_find(inv, h.names[i]);

		if (!n) {
			missing[nmissing++] = h.names[i];
			continue;
		}
		if ((n->kinds >> GP_IMPORT_SCONTROL_NODE) & 1)
			continue;   /* scontrol's Partitions= is the live view */
		gp_slurm_add_partition(&n->partitions, pname, strlen(pname));
	}
	if (nmissing) {
		gp_sbuf sb;

		gp_sbuf_init(&sb);
		gp_hostlist_compress(missing, nmissing, &sb);
		gp_inv_warn(inv, file, first->line, "partition '%s' names nodes no NodeName line "
			    "defines: %s", pname, sb.buf);
		gp_sbuf_release(&sb);
	}
	free(missing);
	gp_hostlist_release(&h);
	return GP_OK;
}

int gp_slurm_read_conf(gp_inventory *inv, const char *text, size_t len, const char *file,
		       gp_error *err)
{
	slurm_lexer x;
	slurm_tok t;
	conf_node def;
	int rc;

	memset(&def, 0, sizeof(def));
	gp_slurm_lex_init(&x, text, len, 1);
	do {
		if (gp_slurm_lex_tok(&x, &t) <= 0)
			continue;
		gp_slurm_unquote(&t);
		if (t.kl == 0)
			return gp_slurm_tok_err(file, &t, 1, err, "expected KEY=VALUE, found '%s'", "a word");
		if (gp_slurm_keq(&t, "NodeName")) {
			if ((rc = conf_node_line(inv, &x, &t, &def, file, err)))
				return rc;
		} else if (gp_slurm_keq(&t, "PartitionName")) {
			if ((rc = conf_partition_line(inv, &x, &t, file, err)))
				return rc;
		} else if (gp_slurm_keq(&t, "Include")) {
			gp_inv_warn(inv, file, t.line, "'Include %.*s' not followed; pass that file "
				    "too", (int)t.vl, t.v);
		}
	} while (gp_slurm_lex_next_line(&x));
	return GP_OK;
}

/* ---- gres.conf ---- */

static int gres_conf_apply(gp_inventory *inv, gp_inv_node *n, const char *type, size_t tl,
			   int count, const int *cores, int ncores, const char *file, int line)
{
	int i;

	if (!n->gpu_type && tl)
		n->gpu_type = gp_xstrndup(type, tl);
	for (i = 0; i < count; i++) {
		int g = n->gres_seen++;

		if (g >= GP_TOPO_MAX_GPUS)
			break;
		if (ncores) {
			if (!n->cores)
				n->cores = gp_xcalloc(1, sizeof(*n->cores));
			free(n->cores->cpus[g]);
			n->cores->cpus[g] = gp_xmalloc((size_t)ncores * sizeof(int));
			memcpy(n->cores->cpus[g], cores, (size_t)ncores * sizeof(int));
			n->cores->n[g] = ncores;
		}
	}
	if (n->ngpus < 0 || !((n->kinds >> GP_IMPORT_SCONTROL_NODE) & 1 ||
			      (n->kinds >> GP_IMPORT_SLURM_CONF) & 1))
		n->ngpus = n->gres_seen;
	else if (n->gres_seen > n->ngpus)
		gp_inv_warn(inv, file, line, "gres.conf lists %d GPUs for '%s', which has %d",
			    n->gres_seen, n->name, n->ngpus);
	return GP_OK;
}

int gp_slurm_read_gres_conf(gp_inventory *inv, const char *text, size_t len, const char *file,
			    gp_error *err)
{
	slurm_lexer x;
	slurm_tok t;
	int rc;

	gp_slurm_lex_init(&x, text, len, 1);
	do {
		slurm_tok nodename = { 0 }, name = { 0 }, type = { 0 }, fil = { 0 }, cores = { 0 }, count = { 0 };
		int have_node = 0, have_name = 0, any = 0, ncores = 0, nfiles = 1;
		int *core_list = NULL;
		long cnt = -1;

		while ((rc = gp_slurm_lex_tok(&x, &t)) > 0) {
			gp_slurm_unquote(&t);
			any = 1;
			if (t.kl == 0)
				return gp_slurm_tok_err(file, &t, 1, err, "expected KEY=VALUE, found '%s'", "a word");
			if (gp_slurm_keq(&t, "NodeName")) {
				nodename = t;
				have_node = 1;
			} else if (gp_slurm_keq(&t, "Name")) {
				name = t;
				have_name = 1;
			} else if (gp_slurm_keq(&t, "Type")) {
				type = t;
			} else if (gp_slurm_keq(&t, "File") || gp_slurm_keq(&t, "MultipleFiles")) {
				fil = t;
			} else if (gp_slurm_keq(&t, "Cores") || gp_slurm_keq(&t, "CPUs")) {
				cores = t;
			} else if (gp_slurm_keq(&t, "Count")) {
				count = t;
			}
		}
		if (!any || !have_name || name.vl != 3 || strncasecmp(name.v, "gpu", 3))
			continue;
		if (fil.vl) {
			gp_hostlist files;

			gp_hostlist_init(&files);
			if ((rc = gp_hostlist_expand(fil.v, fil.vl, &files, file, fil.line, fil.vcol,
						     err)))
				return rc;
			nfiles = (int)files.n;
			gp_hostlist_release(&files);
		} else if (count.vl) {
			if ((rc = gp_slurm_tok_long(file, &count, GP_TOPO_MAX_GPUS, &cnt, err)))
				return rc;
			nfiles = (int)cnt;
		}
		if (cores.vl) {
			const char *cv = cores.v;
			size_t cl = cores.vl;

			if (cl >= 2 && cv[0] == '[' && cv[cl - 1] == ']') {
				cv++;
				cl -= 2;
			}
			if (gp_cpulist_parse(cv, cl, &core_list, &ncores))
				return gp_error_set(err, GP_EINPUT, file, cores.line, cores.vcol,
						    "Cores: bad CPU list '%.*s'", (int)cores.vl, cores.v);
		}
		if (have_node) {
			gp_hostlist h;
			size_t i;

			gp_hostlist_init(&h);
			if ((rc = gp_hostlist_expand(nodename.v, nodename.vl, &h, file, nodename.line,
						     nodename.vcol, err))) {
				free(core_list);
				return rc;
			}
			for (i = 0; i < h.n; i++) {
				gp_inv_node *n = gp_inv_node_get(inv, h.names[i], strlen(h.names[i]),
								 file, nodename.line, nodename.kcol, err);

				if (!n) {
					gp_hostlist_release(&h);
					free(core_list);
					return GP_EINPUT;
				}
				n->kinds |= 1u << GP_IMPORT_GRES_CONF;
				gres_conf_apply(inv, n, type.v, type.vl, nfiles, core_list, ncores,
						file, nodename.line);
			}
			gp_hostlist_release(&h);
		} else {
			if (!inv->has_gres_all) {
				memset(&inv->gres_all, 0, sizeof(inv->gres_all));
				inv->gres_all.ngpus = -1;
				inv->gres_all.name = gp_xstrdup("(every node)");
				inv->has_gres_all = 1;
			}
			gres_conf_apply(inv, &inv->gres_all, type.v, type.vl, nfiles, core_list,
					ncores, file, t.line);
		}
		free(core_list);
	} while (gp_slurm_lex_next_line(&x));
	return GP_OK;
}
