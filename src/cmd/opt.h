/* The option engine of the command line: each command describes its
 * arguments and options once (gp_cmd_desc), and one parser reads every
 * command's argv from that description.  What it gives every command:
 *
 *   - options and operands in any order (`estimate JOB.yaml --json`);
 *     "--" ends the options;
 *   - `--name value` and `--name=value`, `-x value` and `-xvalue`; an
 *     unambiguous prefix of a long name is the name;
 *   - typed values checked against the option's range, with one message
 *     for each type ("--seed wants a whole number in [0, 2147483647], not
 *     'x'"), durations with units (90s, 30m, 2h, 1d);
 *   - "did you mean '--json'?" for a mistyped option;
 *   - the usage text, generated from the description (`gpuplan help`).
 */
#ifndef GPUPLAN_CMD_OPT_H
#define GPUPLAN_CMD_OPT_H

#include <stdio.h>

typedef enum gp_opt_type {
	GP_OT_FLAG,             /* no value */
	GP_OT_STR,              /* text the command checks */
	GP_OT_LONG,             /* whole number in [min, max] */
	GP_OT_DOUBLE,           /* number in [min, max] */
	GP_OT_DURATION,         /* a time: number with s, m, h or d, else in `unit` */
} gp_opt_type;

typedef struct gp_opt {
	const char *name;       /* long name without "--"; NULL ends a table */
	int key;                /* gp_opt_next's answer (> 0) */
	char sc;                /* the short form's letter (-c); 0: none */
	gp_opt_type type;
	const char *arg;        /* the value's name in the usage ("FILE", "PCT") */
	double min, max;        /* numbers and durations (in unit) */
	const char *help;       /* the help text; '\n' starts a new line */
	const char *unit;       /* GP_OT_DURATION: "s" or "h", the unit of a bare number and of the value */
	const char *what;       /* what a bad value is not, in messages ("a percentage"); NULL: by type */
	int hidden;             /* left out of the usage (developers' options) */
	const char *heading;    /* a line the usage prints before this option */
} gp_opt;

/* The usage a command prints for `gpuplan help NAME` is, in order: the
 * usage line(s), about, the options with their help, and more. */
typedef struct gp_cmd_desc {
	const char *name;       /* "estimate", "failures fit" */
	const char *cmd;        /* the command messages name ("failures"); NULL: name */
	const char *synopsis;   /* usage line(s) after "gpuplan NAME ", '\n' between */
	int min_args, max_args; /* operands; max_args -1: any number */
	const char *operands;   /* the message of a wrong operand count ("expected one JOB.yaml") */
	const char *about;      /* paragraphs between the usage and the options */
	const gp_opt *opts;
	const gp_opt *const *groups; /* option tables several commands share
				      * (NULL-terminated), after opts */
	const char *more;       /* text after the options (NULL: none) */
	const struct gp_cmd_desc *const *subs; /* subcommands whose usage
						* `help` prints after this one */
} gp_cmd_desc;

typedef struct gp_opt_state {
	const gp_cmd_desc *d;
	int argc, i;
	char **argv;
	const char *opt;        /* the option as the user wrote it, for messages */
	const gp_opt *cur;      /* its description */
	const char *arg;        /* its value as given (NULL for a flag) */
	long l;                 /* GP_OT_LONG */
	double v;               /* GP_OT_DOUBLE, GP_OT_DURATION (in the option's unit) */
	char **args;            /* operands in order (argv's strings) */
	int nargs;
	int status;             /* after gp_opt_next returned -1: the exit code */
} gp_opt_state;

/* Options several commands take: one name, range, message and help. */
#define GP_OPT_CLUSTER(k) \
	{ .name = "cluster", .sc = 'c', .key = (k), .type = GP_OT_STR, .arg = "FILE", \
	  .help = "cluster YAML (default: the bundled example cluster)" }
#define GP_OPT_LOCK_TIMEOUT(k) \
	{ .name = "lock-timeout", .key = (k), .type = GP_OT_DURATION, .arg = "S", .min = 0, \
	  .max = 86400, .unit = "s", .help = "wait at most S seconds for the lock (default 60;\n" \
	  "a unit may follow: 90s, 5m)" }
#define GP_OPT_SEED(k, help_) \
	{ .name = "seed", .key = (k), .type = GP_OT_LONG, .arg = "N", .min = 0, \
	  .max = 2147483647, .help = (help_) }

void gp_opt_begin(gp_opt_state *s, const gp_cmd_desc *d, int argc, char **argv);
/* The next option's key (its value in arg, l, v), 0 once argv is read and
 * the operand count checked, -1 after a usage error was printed (the exit
 * code in s->status).  (`--help` never reaches a command: main prints the
 * usage.) */
int gp_opt_next(gp_opt_state *s);
void gp_opt_end(gp_opt_state *s);

/* A usage error about the current option (its name and the hint line):
 * returns the usage exit code, to be returned by the command. */
int gp_opt_bad(gp_opt_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether argv (a command's, argv[0] its name) asks for help: --help, or
 * -h where the command takes no -h, before any "--".  The description
 * whose usage answers: d's, or its subcommand's when argv[1] names one;
 * NULL when no help is asked for. */
const gp_cmd_desc *gp_opt_help_for(const gp_cmd_desc *d, int argc, char **argv);
/* The subcommand of d named word ("inflate" of "simulate"), or NULL. */
const gp_cmd_desc *gp_opt_sub_desc(const gp_cmd_desc *d, const char *word);
/* Whether word is an option of d that takes its value from the next
 * word ("-o", "--output", not "--output=x" or a flag). */
int gp_opt_takes_value(const gp_cmd_desc *d, const char *word);

/* The usage text of d (what `gpuplan help NAME` prints). */
void gp_opt_usage(const gp_cmd_desc *d, FILE *fp);

/* "did you mean" among names: the nearest to word within a third of its
 * length (at least 1, at most 3 edits), or a name that word is a prefix
 * of; NULL when none. */
const char *gp_opt_nearest(const char *word, const char *const *names, int n);

/* The index of word among a command's subcommands names[0..n); -1 after
 * a usage error ("unknown subcommand 'fitt' (did you mean 'fit'?)"). */
int gp_opt_subcommand(const char *cmd, const char *word, const char *const *names, int n);

#endif
