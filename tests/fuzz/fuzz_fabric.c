/* Network fabrics (io/import_fabric.c, import_fabric_yaml.c):
 * topology.conf and scontrol show topology (tree and block),
 * ibnetdiscover dumps, topology.yaml, Kueue Topology objects and
 * Kubernetes node labels.  The result must be a forest: every parent chain
 * ends, and every node's leaf exists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/fabric_import.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gp_error err = GP_ERROR_INIT;
	gp_fabric f;
	char *text = malloc(size + 1);
	size_t i, steps;
	int rc;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	gp_fabric_init(&f);
	rc = gp_fabric_read(&f, "fuzz.conf", text, size, &err);
	gp_fuzz_check_status(rc, err.status);
	for (i = 0; !rc && i < f.nsw; i++) {
		int s = (int)i;

		for (steps = 0; f.sw[s].parent >= 0; steps++) {
			if (steps > f.nsw || f.sw[s].parent >= (int)f.nsw)
				abort();        /* a cycle or a dangling parent */
			s = f.sw[s].parent;
		}
	}
	for (i = 0; !rc && i < f.nnode; i++)
		if (f.node_sw[i] < 0 || f.node_sw[i] >= (int)f.nsw ||
		    gp_fabric_node_switch(&f, f.node[i]) != f.node_sw[i])
			abort();
	gp_fabric_release(&f);
	/* the same text as a node list whose labels name the fabric */
	{
		int found = 0;

		gp_fabric_init(&f);
		err = (gp_error)GP_ERROR_INIT;
		rc = gp_fabric_read_labels(&f, "fuzz.json", text, size, &found, &err);
		gp_fuzz_check_status(rc, err.status);
		for (i = 0; !rc && i < f.nnode; i++)
			if (f.node_sw[i] < 0 || f.node_sw[i] >= (int)f.nsw)
				abort();
		gp_fabric_release(&f);
	}
	free(text);
	return 0;
}
