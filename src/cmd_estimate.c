/* gpuplan estimate (stub: replaced by the issue that builds it). */
#include "gpuplan/cli.h"

const char gp_usage_estimate[] =
	"usage: gpuplan estimate ...\n";

int cmd_estimate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gp_cli_fail(GP_EIO, "'estimate' is not implemented yet");
}
