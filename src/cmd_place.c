/* gpuplan place (stub: replaced by the issue that builds it). */
#include "gpuplan/cli.h"

const char gp_usage_place[] =
	"usage: gpuplan place ...\n";

int cmd_place(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gp_cli_fail(GP_EIO, "'place' is not implemented yet");
}
