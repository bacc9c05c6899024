/* gpuplan topo show (stub). */
#include "gpuplan/cli.h"

int gp_cmd_topo_show(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gp_cli_fail(GP_EIO, "'topo show' is not implemented yet");
}
