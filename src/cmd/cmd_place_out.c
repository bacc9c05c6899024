/* gpuplan place: the decision as text (parts, CPUs, NICs, the explanation)
 * and as JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "place_int.h"
#include "gpuplan/util/hostlist.h"
#include "gpuplan/util/util.h"

const char *place_verdict_name(int rc)
{
	return rc == GP_PLACED ? "placed" : rc == PLACE_NEVER ? "never" : "wait";
}

/* ---- rendering ---- */


static const char *nic_dev(const gp_cluster *c, const gp_place_part *part, int nic)
{
	const gp_topo *t = &c->types[c->nodes[part->node].type].topo;

	if (nic < 0 || nic >= t->nnics)
		return NULL;
	return t->nics[nic].device[0] ? t->nics[nic].device : t->nics[nic].id;
}

static const char *part_nic(const gp_cluster *c, const gp_place_part *part)
{
	return nic_dev(c, part, part->nic);
}

/* Whether some GPU of the part uses another NIC than the part's. */
static int has_rails(const gp_place_part *part)
{
	int g;

	for (g = 0; g < part->ngpus; g++)
		if (part->gpu_nic[g] != part->nic)
			return 1;
	return 0;
}

static const char *part_subnet(const gp_cluster *c, const gp_place_part *part)
{
	const gp_node_type *t = &c->types[c->nodes[part->node].type];

	if (part->nic < 0 || part->nic >= t->topo.nnics || !t->nic_subnets)
		return NULL;
	return t->nic_subnets[part->nic];
}

static void net_detail(const gp_place_summary *s, char *buf, size_t size)
{
	if (s->nodes <= 1)
		snprintf(buf, size, "inside one node");
	else if (s->net_levels < 0)
		snprintf(buf, size, "nodes not connected");
	else
		snprintf(buf, size, "%d nodes, %s through %d switch level(s)", s->nodes,
			 s->net_ib ? "InfiniBand" : "Ethernet/RoCE", s->net_levels);
}

/* One line per part after the node name (and its rails line): parts that
 * read alike share a line under a hostlist of their nodes. */
static char *part_text(const gp_cluster *c, gp_place_cache *pc, const gp_place_part *part)
{
	gp_sbuf sb, l;
	const char *nic = part_nic(c, part), *subnet = part_subnet(c, part);
	int g;

	gp_sbuf_init(&sb);
	gp_sbuf_init(&l);
	for (g = 0; g < part->ngpus; g++)
		gp_sbuf_addf(&l, "%s%d", g ? "," : "", part->gpus[g]);
	gp_sbuf_addf(&sb, "%-6s gpus %s", part->role == 1 ? "ps" : "worker", l.buf);
	l.len = 0;
	l.buf[0] = '\0';
	if (part->ncpus > 0)
		gp_sbuf_add_ranges(&l, part->cpus, part->ncpus);
	else
		gp_sbuf_adds(&l, "-");
	gp_sbuf_addf(&sb, "  cpus %s  numa ", l.buf);
	if (part->numa >= 0)
		gp_sbuf_addf(&sb, "%d", part->numa);
	else
		gp_sbuf_adds(&sb, "-");
	gp_sbuf_addf(&sb, "  nic %s", nic ? nic : "-");
	if (nic && part->vf >= 0)
		gp_sbuf_addf(&sb, " vf %d", part->vf);
	if (subnet)
		gp_sbuf_addf(&sb, " subnet %s", subnet);
	if (part->nic_class >= 0)
		gp_sbuf_addf(&sb, " class %s", gp_place_class_name(pc, part->nic_class));
	gp_sbuf_adds(&sb, "\n");
	if (has_rails(part)) {
		gp_sbuf_addf(&sb, "  %-14s rails", "");
		for (g = 0; g < part->ngpus; g++) {
			const char *r = nic_dev(c, part, part->gpu_nic[g]);

			gp_sbuf_addf(&sb, " GPU%d:%s", part->gpus[g], r ? r : "-");
		}
		gp_sbuf_adds(&sb, "\n");
	}
	gp_sbuf_release(&l);
	return gp_sbuf_detach(&sb);
}

static void print_parts(const gp_cluster *c, gp_place_cache *pc, const gp_placement *p)
{
	char **text = gp_xcalloc((size_t)p->nparts + 1, sizeof(*text));
	const char **names = gp_xcalloc((size_t)p->nparts + 1, sizeof(*names));
	int i, k;

	for (i = 0; i < p->nparts; i++)
		text[i] = part_text(c, pc, &p->parts[i]);
	for (i = 0; i < p->nparts; i++) {
		size_t n = 0;
		gp_sbuf hl;

		if (!text[i])
			continue;
		for (k = i; k < p->nparts; k++)
			if (text[k] && !strcmp(text[k], text[i])) {
				names[n++] = c->nodes[p->parts[k].node].name;
				if (k > i) {
					free(text[k]);
					text[k] = NULL;
				}
			}
		gp_sbuf_init(&hl);
		gp_hostlist_compress(names, n, &hl);
		printf("  %-14s %s", hl.buf, text[i]);
		gp_sbuf_release(&hl);
		free(text[i]);
		text[i] = NULL;
	}
	free(text);
	free(names);
}

void place_print_text(const place_opts *o, const gp_cluster *c, gp_place_cache *pc,
		      const gp_job *j, const char *policy, int rc, const gp_placement *p,
		      const gp_place_summary *s, const gp_explain *e)
{
	int i;
	char detail[96];
	gp_sbuf name;

	/* the job's name as the terminal should show it (no control bytes) */
	gp_sbuf_init(&name);
	gp_sbuf_add_printable(&name, j->id);
	printf("job %s: %s, %d GPU(s)", name.buf ? name.buf : "", gp_job_type_name(j->type), j->gpus);
	gp_sbuf_release(&name);
	if (j->gpu_milli < GP_MILLI)
		printf(" x %d milli-GPU", j->gpu_milli);
	printf(", %.4g GiB per GPU", j->gpu_mem_mib / 1024.0);
	if (j->gpu_mem_estimated && o->mem_margin > 0)
		printf(" (estimated, with a %g %% margin)", o->mem_margin * 100);
	else if (j->gpu_mem_estimated)
		printf(" (estimated)");
	printf("\n");
	printf("cluster: %s, policy: %s\n", c->name ? c->name : o->cluster, policy);
	if (rc != GP_PLACED) {
		printf("status: %s: %s\n", place_verdict_name(rc), e->reason);
	} else {
		printf("status: placed on %d node(s), %d GPU(s)\n", s->nodes, s->gpus);
		print_parts(c, pc, p);
		net_detail(s, detail, sizeof(detail));
		if (s->gpus < 2)
			printf("bottleneck: %s (one GPU: no communication between GPUs)\n", s->name);
		else
			printf("bottleneck: %s (%s): %s\n", s->name, detail, s->detail);
		/* The perf model's bottleneck bandwidth: the ring's per GPU;
		 * workers that push to parameter servers form no ring. */
		if (s->gpus > 1 && j->type == GP_JOB_PS_WORKER)
			printf("predicted bottleneck bandwidth: %.1f GB/s (perf model, the link above; "
			       "workers push to parameter servers, no ring)\n", s->ring_gbs);
		else if (s->gpus > 1)
			printf("predicted ring bandwidth: %.1f GB/s per GPU (perf model)\n", s->ring_gbs);
	}
	printf("decision path:\n");
	for (i = 0; i < e->n; i++)
		printf("  - %s\n", e->lines[i]);
	if (e->n == 0)
		printf("  (the policy gave no explanation)\n");
}

static json_t *placement_json(const gp_cluster *c, gp_place_cache *pc, const gp_placement *p)
{
	json_t *arr = json_array();
	int i, g;

	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *part = &p->parts[i];
		json_t *o = json_object(), *gpus = json_array(), *cpus = json_array(), *nics = json_array();
		const char *nic = part_nic(c, part), *subnet = part_subnet(c, part);

		for (g = 0; g < part->ngpus; g++) {
			const char *r = nic_dev(c, part, part->gpu_nic[g]);

			json_array_append_new(gpus, json_integer(part->gpus[g]));
			json_array_append_new(nics, r ? json_string(r) : json_null());
		}
		for (g = 0; g < part->ncpus; g++)
			json_array_append_new(cpus, json_integer(part->cpus[g]));
		json_object_set_new(o, "node", json_string(c->nodes[part->node].name));
		json_object_set_new(o, "gpus", gpus);
		json_object_set_new(o, "cpus", cpus);
		json_object_set_new(o, "numa", part->numa >= 0 ? json_integer(part->numa) : json_null());
		json_object_set_new(o, "nic", nic ? json_string(nic) : json_null());
		json_object_set_new(o, "nics", nics);
		json_object_set_new(o, "class", part->nic_class >= 0 ?
				    json_string(gp_place_class_name(pc, part->nic_class)) : json_null());
		json_object_set_new(o, "vf", nic && part->vf >= 0 ? json_integer(part->vf) : json_null());
		json_object_set_new(o, "subnet", subnet ? json_string(subnet) : json_null());
		json_object_set_new(o, "share", json_integer(part->milli));
		json_object_set_new(o, "role", json_string(part->role == 1 ? "ps" : "worker"));
		json_array_append_new(arr, o);
	}
	return arr;
}

/* The perf model's bottleneck bandwidth to 0.1 GB/s; null for one GPU. */
static json_t *bottleneck_gbs_json(const gp_place_summary *s)
{
	return s->gpus > 1 ? json_real((double)(long long)(s->ring_gbs * 10 + 0.5) / 10) : json_null();
}

json_t *place_decision_json(const place_opts *po, const gp_cluster *c, gp_place_cache *pc,
			    const gp_job *j, const char *policy, int rc,
			    const gp_placement *p, const gp_place_summary *s,
			    const gp_explain *e)
{
	json_t *o = json_object(), *ex = json_array();
	int i;

	json_object_set_new(o, "job", json_string(j->id));
	json_object_set_new(o, "gpu_memory_mib", json_integer(j->gpu_mem_mib));
	json_object_set_new(o, "gpu_memory_estimated", json_boolean(j->gpu_mem_estimated));
	json_object_set_new(o, "memory_margin_percent",
			    j->gpu_mem_estimated ? json_real(po->mem_margin * 100) : json_null());
	json_object_set_new(o, "status", json_string(place_verdict_name(rc)));
	json_object_set_new(o, "policy", json_string(policy));
	if (rc != GP_PLACED) {
		json_object_set_new(o, "reason", json_string(e->reason));
		json_object_set_new(o, "placement", json_array());
		json_object_set_new(o, "bottleneck", json_null());
		json_object_set_new(o, "bottleneck_detail", json_null());
		json_object_set_new(o, "ring_bw_gbs", json_null());
		json_object_set_new(o, "ring_bw_gbyte_s", json_null());
		json_object_set_new(o, "bottleneck_gbyte_s", json_null());
	} else {
		json_object_set_new(o, "placement", placement_json(c, pc, p));
		json_object_set_new(o, "bottleneck", json_string(s->name));
		json_object_set_new(o, "bottleneck_detail", s->gpus > 1 ? json_string(s->detail) : json_null());
		/* ring_bw_gbs: the old name of ring_bw_gbyte_s (GB/s);
		 * bottleneck_gbyte_s the same figure by what it is for every
		 * job type (a PS-Worker job runs no ring), as perf --json
		 * names it */
		json_object_set_new(o, "ring_bw_gbs", bottleneck_gbs_json(s));
		json_object_set_new(o, "ring_bw_gbyte_s", bottleneck_gbs_json(s));
		json_object_set_new(o, "bottleneck_gbyte_s", bottleneck_gbs_json(s));
		json_object_set_new(o, "switch_levels", json_integer(s->net_levels));
	}
	for (i = 0; i < e->n; i++)
		json_array_append_new(ex, json_string(e->lines[i]));
	json_object_set_new(o, "explain", ex);
	return o;
}

int place_dump_json_to(FILE *out, json_t *o)
{
	int rc = json_dumpf(o, out, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(10));

	fputc('\n', out);
	json_decref(o);
	return rc ? GP_EIO : GP_OK;
}

int place_dump_json(json_t *o)
{
	return place_dump_json_to(stdout, o);
}
