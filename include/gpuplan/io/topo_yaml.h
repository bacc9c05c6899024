/* Writer of a node type's topology as the YAML that a cluster's
 * `topology:` item reads back: `topo import` writes it as a file of its
 * own, `import` inline under each node type. */
#ifndef GPUPLAN_IO_TOPO_YAML_H
#define GPUPLAN_IO_TOPO_YAML_H

#include "gpuplan/model/topo.h"
#include "gpuplan/util/util.h"

/* The keys gpus, nics, devices and links, each line prefixed by indent:
 * CPU lists compact as nvidia-smi prints them ("0-55,112-167"). */
void gp_topo_yaml_put(gp_sbuf *sb, const gp_topo *t, const char *indent);

#endif
