/* Helpers shared by the cmd_*.c files: error rendering, data paths. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuplan/cli.h"

#ifndef GP_DATADIR
#define GP_DATADIR "/usr/local/share/gpuplan"
#endif

int gp_cli_report(const gp_error *err)
{
	char buf[1200];

	fprintf(stderr, "gpuplan: %s\n", gp_error_format(err, buf, sizeof(buf)));
	return err->status ? err->status : GP_EIO;
}

int gp_cli_fail(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("gpuplan: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

int gp_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gpuplan %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee 'gpuplan help %s'\n", cmd);
	return GP_EUSAGE;
}

static int is_dir_with(const char *dir, const char *file)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return access(path, R_OK) == 0;
}

const char *gp_cli_datadir(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("GPUPLAN_DATADIR");
	ssize_t n;
	char *slash;

	if (dir[0])
		return dir;
	if (env && *env) {
		snprintf(dir, sizeof(dir), "%s", env);
		return dir;
	}
	/* Running from the source tree: ./gpuplan next to topologies/. */
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 16);
	if (n > 0) {
		dir[n] = '\0';
		slash = strrchr(dir, '/');
		if (slash) {
			strcpy(slash, "/topologies");
			if (is_dir_with(dir, "example-cluster.yaml"))
				return dir;
		}
	}
	snprintf(dir, sizeof(dir), "%s", GP_DATADIR);
	return dir;
}

const char *gp_cli_default_cluster(void)
{
	static char path[PATH_MAX];

	if (!path[0])
		snprintf(path, sizeof(path), "%s/example-cluster.yaml",
			 gp_cli_datadir());
	return path;
}

int gp_cli_stderr_is_tty(void)
{
	return isatty(STDERR_FILENO);
}
