/* gpuplan compare (stub: replaced by the issue that builds it). */
#include "gpuplan/cli.h"

const char gp_usage_compare[] =
	"usage: gpuplan compare ...\n";

int cmd_compare(int argc, char **argv)
{
	if (gp_cli_has_option(argc, argv, "--inflate"))
		return gp_cmd_compare_inflate(argc, argv);
	return gp_cli_fail(GP_EIO, "'compare' is not implemented yet");
}
