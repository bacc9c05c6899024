/* gpuplan compare (stub: replaced by the issue that builds it). */
#include "gpuplan/cli.h"

const char gp_usage_compare[] =
	"usage: gpuplan compare ...\n";

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gp_cli_fail(GP_EIO, "'compare' is not implemented yet");
}
