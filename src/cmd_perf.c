/* gpuplan perf (stub: replaced by the issue that builds it). */
#include "gpuplan/cli.h"

const char gp_usage_perf[] =
	"usage: gpuplan perf ...\n";

int cmd_perf(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gp_cli_fail(GP_EIO, "'perf' is not implemented yet");
}
