/* gpuplan validate (stub: replaced by the issue that builds it). */
#include "gpuplan/cli.h"

const char gp_usage_validate[] =
	"usage: gpuplan validate ...\n";

int cmd_validate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gp_cli_fail(GP_EIO, "'validate' is not implemented yet");
}
