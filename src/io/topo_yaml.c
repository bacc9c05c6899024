/* A topology as YAML (topo_yaml.h). */
#include "gpuplan/io/topo_yaml.h"
#include "gpuplan/io/yaml.h"

void gp_topo_yaml_put(gp_sbuf *sb, const gp_topo *t, const char *indent)
{
	int i, j, n = t->ngpus + t->nnics;
	char buf[16];

	gp_sbuf_addf(sb, "%sgpus:\n", indent);
	for (i = 0; i < t->ngpus; i++) {
		const gp_topo_gpu *g = &t->gpus[i];

		gp_sbuf_addf(sb, "%s  - {id: %s, cpus: ", indent, g->id);
		if (g->ncpus) {
			gp_sbuf_adds(sb, "\"");
			gp_sbuf_add_ranges(sb, g->cpus, g->ncpus);
			gp_sbuf_adds(sb, "\"");
		} else {
			gp_sbuf_adds(sb, "[]");
		}
		if (g->numa >= 0)
			gp_sbuf_addf(sb, ", numa: %d}\n", g->numa);
		else
			gp_sbuf_adds(sb, ", numa: null}\n");
	}
	if (t->nnics) {
		gp_sbuf_addf(sb, "%snics:\n", indent);
		for (i = 0; i < t->nnics; i++) {
			/* the device name is the snapshot's text: quoted unless plain */
			gp_sbuf_addf(sb, "%s  - {id: %s, device: ", indent, t->nics[i].id);
			if (t->nics[i].device[0])
				gp_yaml_put_scalar(sb, t->nics[i].device);
			else
				gp_sbuf_adds(sb, "null");
			gp_sbuf_adds(sb, "}\n");
		}
	} else {
		gp_sbuf_addf(sb, "%snics: []\n", indent);
	}
	gp_sbuf_addf(sb, "%sdevices: [", indent);
	for (i = 0; i < n; i++)
		gp_sbuf_addf(sb, "%s%s", i ? ", " : "",
			     i < t->ngpus ? t->gpus[i].id : t->nics[i - t->ngpus].id);
	gp_sbuf_addf(sb, "]\n%slinks:\n", indent);
	for (i = 0; i < n; i++) {
		gp_sbuf_addf(sb, "%s  - [", indent);
		for (j = 0; j < n; j++)
			gp_sbuf_addf(sb, "%s%s", j ? ", " : "",
				     gp_link_format(gp_topo_link(t, i, j), buf, sizeof(buf)));
		gp_sbuf_adds(sb, "]\n");
	}
}
