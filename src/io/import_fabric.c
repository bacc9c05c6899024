/* The fabric of an imported cluster (fabric_import.h): topology.conf and
 * scontrol show topology (tree and block), ibnetdiscover. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fabric_int.h"
#include "gpuplan/io/fabric_import.h"
#include "gpuplan/util/hostlist.h"
#include "gpuplan/util/util.h"


/* ---- topology.conf and scontrol show topology ---- */

static int conf_line(gp_fabric *f, const char *file, int line, char *l, int *block_root,
		     gp_error *err)
{
	char *tok, *save = NULL, *sname = NULL, *bname = NULL, *nodes = NULL, *switches = NULL;
	const char *nm;
	int s = -1, cols[4] = { 0 }, base = 0;

	base = 1;
	for (tok = strtok_r(l, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
		char *eq = strchr(tok, '=');
		int col = (int)(tok - l) + base;

		if (!eq)
			return gp_error_set(err, GP_EINPUT, file, line, col,
					    "expected Key=Value, found '%.40s'", tok);
		*eq = '\0';
		if (!strcasecmp(tok, "SwitchName")) {
			sname = eq + 1;
			cols[0] = col;
		} else if (!strcasecmp(tok, "BlockName")) {
			bname = eq + 1;
			cols[0] = col;
		} else if (!strcasecmp(tok, "Nodes")) {
			nodes = eq + 1;
			cols[1] = col + 6;
		} else if (!strcasecmp(tok, "Switches")) {
			switches = eq + 1;
			cols[2] = col + 9;
		} else if (!strcasecmp(tok, "AggregatedBlock")) {
			return GP_OK;   /* scontrol's aggregates of base blocks */
		}
		/* LinkSpeed (unused by Slurm), Level, BlockIndex, BlockSize(s) */
	}
	nm = sname ? sname : bname;
	if (!nm)
		return GP_OK;
	if (!*nm)
		return gp_error_set(err, GP_EINPUT, file, line, cols[0], "empty switch name");
	s = gp_fabric_sw(f, nm, line);
	if (s < 0)
		return gp_error_set(err, GP_EINPUT, file, line, cols[0], "more than %d switches",
				    GP_FABRIC_MAX_SWITCHES);
	if (bname) {
		if (*block_root < 0)
			*block_root = gp_fabric_sw(f, "block-root", line);
		if (*block_root < 0)
			return gp_error_set(err, GP_EINPUT, file, line, cols[0], "more than %d switches",
					    GP_FABRIC_MAX_SWITCHES);
		gp_fabric_link(f, file, line, s, *block_root);
	}
	if (nodes && switches) {
		gp_fabric_warn(f, "%s:%d: switch '%s' has both Nodes and Switches: its Switches are ignored, as "
		     "Slurm does", file, line, f->sw[s].name);
		switches = NULL;
	}
	if (nodes) {
		gp_hostlist hl;
		size_t i;
		int rc;

		gp_hostlist_init(&hl);
		rc = gp_hostlist_expand(nodes, strlen(nodes), &hl, file, line, cols[1], err);
		for (i = 0; !rc && i < hl.n; i++)
			if (gp_fabric_attach(f, file, line, hl.names[i], s))
				rc = gp_error_set(err, GP_EINPUT, file, line, cols[1], "more than %d nodes",
						  GP_FABRIC_MAX_NODES);
		gp_hostlist_release(&hl);
		if (rc)
			return rc;
	}
	if (switches) {
		gp_hostlist hl;
		size_t i;
		int rc, c;

		gp_hostlist_init(&hl);
		rc = gp_hostlist_expand(switches, strlen(switches), &hl, file, line, cols[2], err);
		for (i = 0; !rc && i < hl.n; i++) {
			c = gp_fabric_sw(f, hl.names[i], line);
			if (c < 0)
				rc = gp_error_set(err, GP_EINPUT, file, line, cols[2],
						  "more than %d switches", GP_FABRIC_MAX_SWITCHES);
			else
				gp_fabric_link(f, file, line, c, s);
		}
		gp_hostlist_release(&hl);
		if (rc)
			return rc;
	}
	return GP_OK;
}

static int read_conf(gp_fabric *f, const char *file, char *text, gp_error *err)
{
	char *l = text, *nl;
	int line = 0, rc = GP_OK, block_root = -1, blocks = 0;

	for (; l && !rc; l = nl) {
		char *hash;

		nl = strchr(l, '\n');
		if (nl)
			*nl++ = '\0';
		line++;
		hash = strchr(l, '#');
		if (hash)
			*hash = '\0';
		blocks |= !strncasecmp(l + strspn(l, " \t"), "BlockName", 9);
		rc = conf_line(f, file, line, l, &block_root, err);
	}
	if (!f->form)
		f->form = gp_xstrdup(blocks ? "topology.conf (block)" : "topology.conf (tree)");
	return rc;
}

/* ---- ibnetdiscover ---- */

typedef struct ib_node {
	char *id;               /* "S-..." / "H-..."; the id map's key (kept
				   apart from the array, which grows) */
	char *desc;
	int line;
	int is_switch;
} ib_node;

typedef struct ib_link {
	int a, b;               /* node indices (a a switch); b -1 until resolved */
	char peer[20];
} ib_link;

static int cmp_cstr(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The quoted text after from, into buf. */
static const char *quoted(const char *from, char *buf, size_t size)
{
	const char *q = strchr(from, '"'), *e;
	size_t n;

	if (!q)
		return NULL;
	e = strchr(q + 1, '"');
	if (!e)
		return NULL;
	n = (size_t)(e - q - 1);
	if (n >= size)
		n = size - 1;
	memcpy(buf, q + 1, n);
	buf[n] = '\0';
	return e + 1;
}

/* A switch's name from its description: UFM's "MF0;leaf01:MQM9700/U1"
 * gives leaf01; else the description; else the id. */
static void ib_switch_name(const ib_node *n, char *buf, size_t size)
{
	const char *semi = n->desc ? strchr(n->desc, ';') : NULL, *colon;

	if (semi && (colon = strchr(semi, ':')) && colon > semi + 1) {
		size_t k = (size_t)(colon - semi - 1) < size - 1 ? (size_t)(colon - semi - 1) : size - 1;

		memcpy(buf, semi + 1, k);
		buf[k] = '\0';
		return;
	}
	snprintf(buf, size, "%s", n->desc && *n->desc ? n->desc : n->id);
}

/* A compute host: "HOST DEVICE" (rdma-ndd's default "%h %d"). */
static int ib_host(const ib_node *n, char *buf, size_t size)
{
	const char *d = n->desc, *sp;

	if (!d || !(sp = strchr(d, ' ')) || sp == d || strchr(sp + 1, ' ') || !sp[1])
		return 0;
	snprintf(buf, size, "%.*s", (int)(sp - d), d);
	return 1;
}

static int read_ibnet(gp_fabric *f, const char *file, char *text, gp_error *err)
{
	ib_node *nodes = NULL;
	ib_link *links = NULL;
	size_t nn = 0, capn = 0, nl = 0, capl = 0, i, k;
	gp_fsmap ids = { 0 };
	char *l = text, *next, buf[256];
	int line = 0, cur = -1, rc = GP_OK, nspeed[9] = { 0 };
	static const char *const speed_names[] = { "SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR",
						   "NDR", "XDR" };
	static const char *const speed_tech[] = { NULL, NULL, NULL, "ib-fdr", "ib-fdr", "ib-edr",
						  "ib-hdr", "ib-ndr", "ib-xdr" };
	int *level = NULL;
	char **host = NULL;
	int *merged = NULL;

	/* pass 1: nodes and their port lines */
	for (; l; l = next) {
		const char *p;

		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		line++;
		p = l + strspn(l, " \t");
		if (!strncmp(p, "Switch", 6) || !strncmp(p, "Ca", 2) || !strncmp(p, "Rt", 2)) {
			const char *after = quoted(p, buf, sizeof(buf));
			char desc[256];

			if (!after)
				continue;
			GP_GROW(nodes, capn, nn + 1);
			memset(&nodes[nn], 0, sizeof(nodes[nn]));
			nodes[nn].id = gp_xstrdup(buf);
			nodes[nn].is_switch = p[0] == 'S';
			nodes[nn].line = line;
			after = strchr(after, '#');
			if (after && quoted(after, desc, sizeof(desc)))
				nodes[nn].desc = gp_xstrdup(desc);
			/* ids are unique in a dump; a repeat keeps the first */
			if (gp_fsmap_get(&ids, nodes[nn].id) < 0)
				gp_fsmap_put(&ids, nodes[nn].id, (int)nn);
			cur = nodes[nn].is_switch ? (int)nn : -1;
			nn++;
			if (nn > GP_FABRIC_MAX_SWITCHES * 10) {
				rc = gp_error_set(err, GP_EINPUT, file, line, 1, "too many nodes");
				break;
			}
			continue;
		}
		if (*p == '[' && cur >= 0) {
			const char *q = strchr(p, '"');
			char *hashp;
			int sp;

			if (!q || !quoted(q, buf, sizeof(buf)))
				continue;
			GP_GROW(links, capl, nl + 1);
			links[nl].a = cur;
			links[nl].b = -1;
			snprintf(links[nl].peer, sizeof(links[nl].peer), "%s", buf);
			nl++;
			hashp = strchr(p, '#');
			for (sp = 8; hashp && sp >= 0; sp--) {
				const char *w = strstr(hashp, speed_names[sp]);

				if (w && w > hashp + 1 && isdigit((unsigned char)w[-2]) && w[-1] == 'x') {
					nspeed[sp]++;
					break;
				}
			}
		}
	}
	for (k = 0; k < nl; k++)
		links[k].b = gp_fsmap_get(&ids, links[k].peer);
	if (rc)
		goto out;
	/* leaves: switches with a host; hosts under the leaves of their HCAs */
	level = gp_xmalloc((nn ? nn : 1) * sizeof(*level));
	host = gp_xcalloc(nn ? nn : 1, sizeof(*host));
	for (i = 0; i < nn; i++) {
		level[i] = -1;
		if (!nodes[i].is_switch && nodes[i].line > 0 && ib_host(&nodes[i], buf, sizeof(buf)))
			host[i] = gp_xstrdup(buf);
	}
	for (k = 0; k < nl; k++)
		if (links[k].b >= 0 && host[links[k].b] && nodes[links[k].a].is_switch)
			level[links[k].a] = 0;
	/* rails: leaves serving the same set of hosts become one logical leaf */
	merged = gp_xmalloc((nn ? nn : 1) * sizeof(*merged));
	for (i = 0; i < nn; i++)
		merged[i] = (int)i;
	{
		/* the signature of a leaf: its hosts, sorted, joined; each
		 * switch's links found through an index (linear in links) and
		 * equal signatures through a map (linear in leaves) */
		char **sig = gp_xcalloc(nn ? nn : 1, sizeof(*sig));
		size_t *lstart = gp_xcalloc(nn + 1, sizeof(*lstart));
		size_t *lidx = gp_xmalloc((nl ? nl : 1) * sizeof(*lidx));
		size_t *fill = gp_xmalloc((nn ? nn : 1) * sizeof(*fill));
		gp_fsmap bysig = { 0 };

		for (k = 0; k < nl; k++)
			lstart[links[k].a + 1]++;
		for (i = 0; i < nn; i++) {
			lstart[i + 1] += lstart[i];
			fill[i] = lstart[i];
		}
		for (k = 0; k < nl; k++)
			lidx[fill[links[k].a]++] = k;
		free(fill);
		for (i = 0; i < nn; i++) {
			gp_sbuf sb;
			const char **hs;
			size_t nh = 0, j, r;

			if (level[i] != 0)
				continue;
			hs = gp_xmalloc((lstart[i + 1] - lstart[i] + 1) * sizeof(*hs));
			for (r = lstart[i]; r < lstart[i + 1]; r++) {
				k = lidx[r];
				if (links[k].b >= 0 && host[links[k].b])
					hs[nh++] = host[links[k].b];
			}
			qsort(hs, nh, sizeof(*hs), cmp_cstr);
			gp_sbuf_init(&sb);
			for (j = 0; j < nh; j++)
				if (!j || strcmp(hs[j], hs[j - 1]))
					gp_sbuf_addf(&sb, "%s,", hs[j]);
			sig[i] = gp_sbuf_detach(&sb);
			free(hs);
		}
		for (i = 0; i < nn; i++) {
			int j;
			char a[128], b[128];

			if (level[i] != 0 || !sig[i])
				continue;
			/* the first leaf of that signature */
			j = gp_fsmap_get(&bysig, sig[i]);
			if (j < 0) {
				gp_fsmap_put(&bysig, sig[i], (int)i);
				continue;
			}
			merged[i] = j;
			ib_switch_name(&nodes[j], a, sizeof(a));
			ib_switch_name(&nodes[i], b, sizeof(b));
			gp_fabric_warn(f, "%s:%d: leaf '%s' serves the same nodes as '%s': a rail of "
			     "those nodes (their switch stays '%s')", file, nodes[i].line, b, a, a);
		}
		for (i = 0; i < nn; i++)
			free(sig[i]);
		free(sig);
		free(bysig.key);
		free(bysig.val);
		free(lstart);
		free(lidx);
	}
	/* levels upward: unplaced switches linked to level L */
	for (int lv = 0; lv < 64; lv++) {
		int added = 0;

		for (k = 0; k < nl; k++) {
			int a = links[k].a, b = links[k].b;

			if (b < 0 || !nodes[a].is_switch || !nodes[b].is_switch)
				continue;
			if (level[a] == lv && level[b] < 0) {
				level[b] = lv + 1;
				added = 1;
			} else if (level[b] == lv && level[a] < 0) {
				level[a] = lv + 1;
				added = 1;
			}
		}
		if (!added)
			break;
	}
	/* the switches, parents first found one level up */
	for (i = 0; i < nn; i++) {
		char name[128];
		int s;

		if (!nodes[i].is_switch || level[i] < 0 || nodes[i].line < 0)
			continue;
		ib_switch_name(&nodes[i], name, sizeof(name));
		s = gp_fabric_sw(f, name, nodes[i].line);
		if (s < 0) {
			rc = gp_error_set(err, GP_EINPUT, file, nodes[i].line, 1, "more than %d switches",
					  GP_FABRIC_MAX_SWITCHES);
			goto out;
		}
	}
	for (k = 0; k < nl; k++) {
		int a = links[k].a, b = links[k].b, lo, hi;
		char na[128], nb[128];

		if (b < 0 || !nodes[a].is_switch || !nodes[b].is_switch || level[a] < 0 || level[b] < 0)
			continue;
		if (level[a] + 1 == level[b]) {
			lo = a;
			hi = b;
		} else if (level[b] + 1 == level[a]) {
			lo = b;
			hi = a;
		} else {
			continue;
		}
		ib_switch_name(&nodes[lo], na, sizeof(na));
		ib_switch_name(&nodes[hi], nb, sizeof(nb));
		{
			gp_fidx *x = f->index;
			int c = gp_fsmap_get(&x->sw, na), p = gp_fsmap_get(&x->sw, nb);

			/* both ends list a link: only a new parent is news */
			if (c >= 0 && p >= 0 && f->sw[c].parent != p && f->sw[c].parent < 0)
				f->sw[c].parent = p;
		}
	}
	/* rails: each leaf of a group (in file order) on its first leaf */
	for (i = 0; i < nn; i++) {
		gp_fidx *x = f->index;
		char name[128];
		int g, s;

		if (merged[i] == (int)i || nodes[i].line < 0)
			continue;
		ib_switch_name(&nodes[merged[i]], name, sizeof(name));
		g = gp_fsmap_get(&x->sw, name);
		ib_switch_name(&nodes[i], name, sizeof(name));
		s = gp_fsmap_get(&x->sw, name);
		if (g < 0 || s < 0 || f->sw[g].nrails >= 64)
			continue;
		if (!f->sw[g].nrails) {
			f->sw[g].rails = gp_xmalloc(64 * sizeof(*f->sw[g].rails));
			f->sw[g].rails[f->sw[g].nrails++] = g;
		}
		f->sw[g].rails[f->sw[g].nrails++] = s;
	}
	/* hosts: under the first leaf of their rails */
	for (k = 0; k < nl; k++) {
		int a = links[k].a, b = links[k].b;
		char name[128];
		gp_fidx *x = f->index;
		int s;

		if (b < 0 || !host[b] || level[a] != 0)
			continue;
		ib_switch_name(&nodes[merged[a]], name, sizeof(name));
		s = gp_fsmap_get(&x->sw, name);
		if (s >= 0 && gp_fabric_attach(f, file, nodes[b].line > 0 ? nodes[b].line : nodes[a].line,
				     host[b], s)) {
			rc = gp_error_set(err, GP_EINPUT, file, nodes[a].line, 1, "more than %d nodes",
					  GP_FABRIC_MAX_NODES);
			goto out;
		}
	}
	{
		int best = -1, bi;

		for (bi = 0; bi < 9; bi++)
			if (nspeed[bi] && (best < 0 || nspeed[bi] >= nspeed[best]))
				best = bi;
		const char *tech = best >= 0 ? speed_tech[best] : NULL;

		if (tech) {
			free(f->tech);
			f->tech = gp_xstrdup(tech);
		}
	}
	if (!f->form)
		f->form = gp_xstrdup("ibnetdiscover");
out:
	for (i = 0; i < nn; i++) {
		free(nodes[i].desc);
		free(nodes[i].id);
		if (host)
			free(host[i]);
	}
	free(nodes);
	free(links);
	free(level);
	free(host);
	free(merged);
	free(ids.key);
	free(ids.val);
	return rc;
}

int gp_fabric_sniff(const char *text, size_t len)
{
	size_t lim = len < 65536 ? len : 65536;

	if (memmem(text, lim, "switchguid=", 11) || memmem(text, lim, "caguid=", 7) ||
	    (memmem(text, lim, "Switch\t", 7) && memmem(text, lim, "\"S-", 3)))
		return 2;
	if (memmem(text, lim, "SwitchName=", 11) || memmem(text, lim, "switchname=", 11) ||
	    memmem(text, lim, "BlockName=", 10) || memmem(text, lim, "BlockSizes=", 11))
		return 1;
	if (memmem(text, lim, "topology:", 9) &&
	    (memmem(text, lim, "tree:", 5) || memmem(text, lim, "block:", 6) || memmem(text, lim, "flat:", 5)))
		return 3;
	if ((memmem(text, lim, "kind: Topology", 14) || memmem(text, lim, "\"kind\": \"Topology\"", 18)) &&
	    memmem(text, lim, "nodeLabel", 9))
		return 4;
	return 0;
}

int gp_fabric_read(gp_fabric *f, const char *name, const char *text, size_t len, gp_error *err)
{
	size_t bom = gp_text_bom(text, len);
	char *copy;
	int kind, rc;

	if (gp_text_check(text, len, name, 1, err))
		return GP_EINPUT;
	text += bom;
	len -= bom;
	kind = gp_fabric_sniff(text, len);
	copy = gp_xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	if (kind == 2)
		rc = read_ibnet(f, name, copy, err);
	else if (kind == 1)
		rc = read_conf(f, name, copy, err);
	else if (kind == 3 || kind == 4 || memmem(copy, len < 65536 ? len : 65536, "NodeList", 8) ||
		 memmem(copy, len < 65536 ? len : 65536, "\"Node\"", 6) ||
		 memmem(copy, len < 65536 ? len : 65536, "kind: Node", 10))
		rc = gp_fabric_read_yaml(f, name, copy, len, err);
	else
		rc = gp_error_set(err, GP_EINPUT, name, 1, 1,
				  "not a fabric: expected topology.conf (SwitchName= or BlockName= "
				  "lines), topology.yaml, scontrol show topology, ibnetdiscover output, "
				  "a Kueue Topology or Kubernetes nodes with topology labels");
	if (!rc)
		gp_fabric_resolve(f, name);
	free(copy);
	return rc;
}
