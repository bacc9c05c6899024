/* gpuplan calibrate (stub: replaced by the issue that builds it). */
#include "gpuplan/cli.h"

const char gp_usage_calibrate[] =
	"usage: gpuplan calibrate ...\n";

int cmd_calibrate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gp_cli_fail(GP_EIO, "'calibrate' is not implemented yet");
}
