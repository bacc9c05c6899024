/* gpuplan topo: import (snapshot -> node type) and show. */
#include <string.h>

#include "gpuplan/cli.h"

const char gp_usage_topo[] =
	"usage: gpuplan topo import SNAPSHOT [-o FILE] [--name NAME] [--gpu-model MODEL] [--json]\n"
	"       gpuplan topo show [-c CLUSTER] [--node NAME] [--json]\n";

static int topo_import(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gp_cli_fail(GP_EIO, "'topo import' is not implemented yet");
}

int cmd_topo(int argc, char **argv)
{
	if (argc < 2)
		return gp_cli_usage_error("topo", "missing subcommand (import or show)");
	if (!strcmp(argv[1], "import"))
		return topo_import(argc - 1, argv + 1);
	if (!strcmp(argv[1], "show"))
		return gp_cmd_topo_show(argc - 1, argv + 1);
	return gp_cli_usage_error("topo", "unknown subcommand '%s'", argv[1]);
}
