/* gpuplan: the command table.  Each command lives in src/cmd_<name>.c. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "opt.h"

static int cmd_completion(int argc, char **argv);

static const gp_command commands[] = {
	{ "calibrate", cmd_calibrate, "fit the iteration-time model to measured profiles", &gp_desc_calibrate },
	{ "compare", cmd_compare, "run several policies/seeds on one trace, side by side", &gp_desc_compare },
	{ "completion", cmd_completion, "print a bash or zsh completion script", &gp_desc_completion },
	{ "env", cmd_env, "bind development environments' GPUs by quota; heartbeats, reclaim", &gp_desc_env },
	{ "estimate", cmd_estimate, "estimate the GPU memory a training job needs", &gp_desc_estimate },
	{ "failures", cmd_failures, "fit failure models to real lifetimes (Weibull, censored)", &gp_desc_failures_fit },
	{ "import", cmd_import, "build a cluster and today's state from Slurm or Kubernetes output", &gp_desc_import },
	{ "perf", cmd_perf, "model collective and iteration time on a placement", &gp_desc_perf },
	{ "place", cmd_place, "choose nodes, GPUs, CPUs and NIC for a job, and explain", &gp_desc_place },
	{ "predict", cmd_predict, "train and apply utilization, memory and run-time predictors", &gp_desc_predict },
	{ "release", cmd_release, "give a job's allocation back to the state", &gp_desc_release },
	{ "replace", cmd_replace, "replace a failed member of a running job (worker replacement)", &gp_desc_replace },
	{ "simulate", cmd_simulate, "replay a job trace on a cluster (discrete events)", &gp_desc_simulate },
	{ "topo", cmd_topo, "import nvidia-smi snapshots; show node and fabric topology", &gp_desc_topo },
	{ "validate", cmd_validate, "check a cluster, job or snapshot file", &gp_desc_validate },
	{ "whatif", cmd_whatif, "capacity what-if sweeps: cheapest cluster that meets an SLO", &gp_desc_whatif },
};

static int cmd_completion(int argc, char **argv)
{
	return gp_cli_completion(argc, argv, commands, (int)(sizeof(commands) / sizeof(commands[0])));
}

static const gp_command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* "'x' is not a gpuplan command", with the nearest command's name. */
static int not_a_command(const char *word)
{
	const char *names[GP_ARRAY_SIZE(commands) + 1], *hit;
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(commands); i++)
		names[i] = commands[i].name;
	names[i] = "help";
	hit = gp_opt_nearest(word, names, (int)GP_ARRAY_SIZE(names));
	if (hit)
		return gp_cli_fail(GP_EUSAGE, "'%s' is not a gpuplan command (did you mean '%s'?); "
				   "see 'gpuplan --help'", word, hit);
	return gp_cli_fail(GP_EUSAGE, "'%s' is not a gpuplan command; see 'gpuplan --help'", word);
}

static void print_main_help(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: gpuplan [--version] [--help] COMMAND [ARGS]\n\n"
		    "Topology-aware placement and simulation of deep-learning training jobs on GPU clusters.\n\n"
		    "Commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(fp, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(fp, "\nRun 'gpuplan help COMMAND' for a command's options; 'man gpuplan' for file formats.\n"
		    "Exit status: 0 ok, 1 negative answer, 2 usage, 3 bad input, 4 I/O or internal error.\n");
}

static int cmd_help(int argc, char **argv)
{
	const gp_command *cmd;

	if (argc < 2) {
		print_main_help(stdout);
		return GP_OK;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return not_a_command(argv[1]);
	/* `help simulate inflate`: the subcommand's usage alone */
	if (argc > 2 && gp_opt_sub_desc(cmd->desc, argv[2]))
		gp_opt_usage(gp_opt_sub_desc(cmd->desc, argv[2]), stdout);
	else
		fputs(gp_cli_usage_text(cmd), stdout);
	return GP_OK;
}

static int finish(int status)
{
	/* A full disk or closed pipe must not pass as success. */
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "gpuplan: error writing standard output\n");
		return status ? status : GP_EIO;
	}
	return status;
}

int main(int argc, char **argv)
{
	const gp_command *cmd;
	const gp_cmd_desc *help;

	gp_cli_memory_setup();
	if (argc < 2) {
		print_main_help(stderr);
		return GP_EUSAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return finish(cmd_help(1, argv + 1));
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("gpuplan %s\n", GP_VERSION);
		return finish(GP_OK);
	}
	if (!strcmp(argv[1], "help"))
		return finish(cmd_help(argc - 1, argv + 1));
	cmd = find_command(argv[1]);
	if (!cmd)
		return not_a_command(argv[1]);
	help = gp_opt_help_for(cmd->desc, argc - 1, argv + 1);
	if (help) {
		gp_opt_usage(help, stdout);
		return finish(GP_OK);
	}
	return finish(cmd->fn(argc - 1, argv + 1));
}
