/* gpuplan simulate (stub: replaced by the issue that builds it). */
#include "gpuplan/cli.h"

const char gp_usage_simulate[] =
	"usage: gpuplan simulate ...\n";

int cmd_simulate(int argc, char **argv)
{
	if (gp_cli_has_option(argc, argv, "--inflate"))
		return gp_cmd_simulate_inflate(argc, argv);
	return gp_cli_fail(GP_EIO, "'simulate' is not implemented yet");
}
