/* The option engine (opt.h): one parser for every command's argv. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opt.h"
#include "gpuplan/util/util.h"

#define CMD_OF(d) ((d)->cmd ? (d)->cmd : (d)->name)

void gp_opt_begin(gp_opt_state *s, const gp_cmd_desc *d, int argc, char **argv)
{
	memset(s, 0, sizeof(*s));
	s->d = d;
	s->argc = argc;
	s->argv = argv;
	s->i = 1;
	s->args = gp_xcalloc((size_t)(argc > 0 ? argc : 1), sizeof(*s->args));
}

void gp_opt_end(gp_opt_state *s)
{
	free(s->args);
	s->args = NULL;
}

static int usage_error(gp_opt_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int usage_error(gp_opt_state *s, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gpuplan %s: ", CMD_OF(s->d));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee 'gpuplan help %s'\n", CMD_OF(s->d));
	s->status = GP_EUSAGE;
	return -1;
}

int gp_opt_bad(gp_opt_state *s, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gpuplan %s: ", CMD_OF(s->d));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee 'gpuplan help %s'\n", CMD_OF(s->d));
	return GP_EUSAGE;
}

const char *gp_opt_nearest(const char *word, const char *const *names, int n)
{
	const char *best = NULL;
	size_t wl = strlen(word);
	int i, bd = (int)(wl / 3), d;

	if (bd < 1)
		bd = 1;
	if (bd > 3)
		bd = 3;
	for (i = 0; i < n; i++) {
		d = gp_edit_distance(word, names[i], 0);
		if (d <= bd && (!best || d < gp_edit_distance(word, best, 0)))
			best = names[i];
	}
	if (!best && wl >= 3)
		for (i = 0; i < n && !best; i++)
			if (!strncmp(names[i], word, wl))
				best = names[i];
	return best;
}

int gp_opt_subcommand(const char *cmd, const char *word, const char *const *names, int n)
{
	const char *hit;
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(word, names[i]))
			return i;
	hit = gp_opt_nearest(word, names, n);
	if (hit)
		gp_cli_usage_error(cmd, "unknown subcommand '%s' (did you mean '%s'?)", word, hit);
	else {
		char list[256] = "";
		size_t len = 0;

		for (i = 0; i < n && len < sizeof(list); i++)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "", names[i]);
		gp_cli_usage_error(cmd, "unknown subcommand '%s' (%s)", word, list);
	}
	return -1;
}

static int nopts(const gp_opt *o)
{
	int n = 0;

	while (o && o[n].name)
		n++;
	return n;
}

/* The options of d: its own table, then the shared groups. */
static int count(const gp_cmd_desc *d)
{
	int n = nopts(d->opts), g;

	for (g = 0; d->groups && d->groups[g]; g++)
		n += nopts(d->groups[g]);
	return n;
}

static const gp_opt *nth(const gp_cmd_desc *d, int i)
{
	int n = nopts(d->opts), g;

	if (i < n)
		return &d->opts[i];
	i -= n;
	for (g = 0; d->groups && d->groups[g]; g++) {
		n = nopts(d->groups[g]);
		if (i < n)
			return &d->groups[g][i];
		i -= n;
	}
	return NULL;
}

/* The long option named by name[0..len): exact, else the one it is a
 * prefix of; *ambiguous when several are. */
static const gp_opt *find_long(const gp_cmd_desc *d, const char *name, size_t len, int *ambiguous)
{
	const gp_opt *hit = NULL, *o;
	int i, n = count(d);

	*ambiguous = 0;
	for (i = 0; i < n; i++) {
		o = nth(d, i);
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	}
	for (i = 0; i < n; i++) {
		o = nth(d, i);
		if (!strncmp(o->name, name, len)) {
			if (hit && hit->key != o->key)
				*ambiguous = 1;
			hit = o;
		}
	}
	return *ambiguous ? NULL : hit;
}

static const gp_opt *find_short(const gp_cmd_desc *d, int c)
{
	int i, n = count(d);

	for (i = 0; i < n; i++)
		if (nth(d, i)->sc && nth(d, i)->sc == c)
			return nth(d, i);
	return NULL;
}

static int unknown(gp_opt_state *s, const char *word)
{
	const char *names[256], *hit;
	char given[72], key[72];
	int i, n = count(s->d);
	const char *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word) : strlen(word);

	if (n > 256)
		n = 256;
	for (i = 0; i < n; i++)
		names[i] = nth(s->d, i)->name;
	snprintf(given, sizeof(given), "%.*s", (int)(len > 64 ? 64 : len), word);
	snprintf(key, sizeof(key), "%s", given + (given[1] == '-' ? 2 : 1));
	hit = given[0] == '-' && key[0] ? gp_opt_nearest(key, names, n) : NULL;
	if (hit)
		return usage_error(s, "unknown option '%s' (did you mean '--%s'?)", word, hit);
	return usage_error(s, "unknown option '%s'", word);
}

static const char *num(char *buf, size_t n, double x)
{
	if (fabs(x) >= 1e15 && isfinite(x))
		snprintf(buf, n, "%.6g", x);
	else
		snprintf(buf, n, "%.15g", x);
	return buf;
}

/* Check and convert the value of the current option. */
static int take_value(gp_opt_state *s)
{
	const gp_opt *o = s->cur;
	char a[32], b[32], nm[72];

	/* named as the user wrote it: -j, else the whole long name */
	if (s->opt[1] != '-')
		snprintf(nm, sizeof(nm), "-%c", o->sc);
	else
		snprintf(nm, sizeof(nm), "--%s", o->name);

	switch (o->type) {
	case GP_OT_LONG:
		if (gp_parse_long(s->arg, (long)o->min, (long)o->max, &s->l))
			return usage_error(s, "%s wants %s in [%s, %s], not '%s'", nm,
					   o->what ? o->what : "a whole number", num(a, sizeof(a), o->min),
					   num(b, sizeof(b), o->max), s->arg);
		s->v = (double)s->l;
		break;
	case GP_OT_DOUBLE:
		if (gp_parse_double(s->arg, o->min, o->max, &s->v) || !isfinite(s->v))
			return usage_error(s, "%s wants %s in [%s, %s], not '%s'", nm,
					   o->what ? o->what : "a number", num(a, sizeof(a), o->min),
					   num(b, sizeof(b), o->max), s->arg);
		break;
	case GP_OT_DURATION:
		if (gp_parse_duration(s->arg, o->unit, o->min, o->max, &s->v))
			return usage_error(s, "%s wants %s in [%s, %s] %s (a number, or with a unit: "
					   "90s, 30m, 2h, 1d), not '%s'", nm, o->what ? o->what : "a time",
					   num(a, sizeof(a), o->min),
					   isfinite(o->max) ? num(b, sizeof(b), o->max) : "inf",
					   o->unit && !strcmp(o->unit, "h") ? "hours" : "seconds", s->arg);
		break;
	default:
		break;
	}
	return o->key;
}

int gp_opt_next(gp_opt_state *s)
{
	while (s->i < s->argc) {
		char *a = s->argv[s->i++];

		if (!strcmp(a, "--")) {
			while (s->i < s->argc)
				s->args[s->nargs++] = s->argv[s->i++];
			break;
		}
		if (a[0] != '-' || a[1] == '\0') {
			s->args[s->nargs++] = a;
			continue;
		}
		s->opt = a;
		s->arg = NULL;
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			int amb;

			s->cur = find_long(s->d, name, len, &amb);
			if (amb)
				return usage_error(s, "option '%.*s' is ambiguous", (int)(len + 2), a);
			if (!s->cur)
				return unknown(s, a);
			if (s->cur->type == GP_OT_FLAG) {
				if (eq)
					return usage_error(s, "--%s takes no value", s->cur->name);
				return s->cur->key;
			}
			if (eq)
				s->arg = eq + 1;
		} else {
			s->cur = find_short(s->d, (unsigned char)a[1]);
			if (!s->cur)
				return unknown(s, a);
			if (s->cur->type == GP_OT_FLAG) {
				if (a[2])
					return usage_error(s, "-%c takes no value", a[1]);
				return s->cur->key;
			}
			if (a[2])
				s->arg = a + 2;
		}
		if (!s->arg) {
			if (s->i >= s->argc)
				return usage_error(s, "%s wants a value (%s)", a, s->cur->arg ? s->cur->arg : "");
			s->arg = s->argv[s->i++];
		}
		return take_value(s);
	}
	if (s->nargs < s->d->min_args || (s->d->max_args >= 0 && s->nargs > s->d->max_args)) {
		/* one too many: name it (often the value of a flag that takes
		 * none, as in whatif SPEC --json out.json) */
		if (s->d->operands && s->d->max_args >= 0 && s->nargs > s->d->max_args)
			return usage_error(s, "%s, got '%s' too", s->d->operands,
					   s->args[s->d->max_args]);
		if (s->d->operands)
			return usage_error(s, "%s", s->d->operands);
		if (s->d->max_args >= 0 && s->nargs > s->d->max_args)
			return usage_error(s, "unexpected argument '%s'", s->args[s->d->max_args]);
		return usage_error(s, "expected more arguments");
	}
	return 0;
}

const gp_cmd_desc *gp_opt_sub_desc(const gp_cmd_desc *d, const char *word)
{
	size_t n = strlen(d->name);
	int i;

	for (i = 0; d->subs && d->subs[i]; i++)
		if (!strncmp(d->subs[i]->name, d->name, n) && d->subs[i]->name[n] == ' ' &&
		    !strcmp(d->subs[i]->name + n + 1, word))
			return d->subs[i];
	return NULL;
}

const gp_cmd_desc *gp_opt_help_for(const gp_cmd_desc *d, int argc, char **argv)
{
	const gp_cmd_desc *show = argc > 1 ? gp_opt_sub_desc(d, argv[1]) : NULL;
	int i;

	/* `CMD SUB --help`: the subcommand's own usage */
	if (!show)
		show = d;
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help"))
			return show;
		/* -h is help unless the command takes it as an option */
		if (!strcmp(argv[i], "-h") && !find_short(show, 'h'))
			return show;
	}
	return NULL;
}

int gp_opt_takes_value(const gp_cmd_desc *d, const char *word)
{
	const gp_opt *o;
	int amb;

	if (word[0] != '-' || !word[1])
		return 0;
	if (word[1] == '-') {
		if (strchr(word, '='))
			return 0;
		o = find_long(d, word + 2, strlen(word + 2), &amb);
	} else {
		o = word[2] ? NULL : find_short(d, (unsigned char)word[1]);
	}
	return o && o->type != GP_OT_FLAG;
}

/* Help text from column col of the current line: its first line there
 * (after padding to ind, or two spaces past a long head), the others at
 * ind. */
static void put_lines(FILE *fp, const char *text, int ind, int col)
{
	const char *p = text;
	int first = 1;

	while (*p) {
		size_t n = strcspn(p, "\n");

		if (!first)
			fprintf(fp, "%*s", ind, "");
		else if (col < ind - 1)
			fprintf(fp, "%*s", ind - col, "");
		else
			fputs("  ", fp);
		fprintf(fp, "%.*s\n", (int)n, p);
		p += n;
		if (*p == '\n')
			p++;
		first = 0;
	}
}

/* Where a line of n characters at p leaves a bracketed group open: the
 * offset of the group's value (after "[--option "), -1 when none is. */
static int open_group(const char *p, size_t n)
{
	int at[8], depth = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] == '[' && depth < (int)GP_ARRAY_SIZE(at))
			at[depth++] = (int)i;
		else if (p[i] == ']' && depth > 0)
			depth--;
	if (!depth)
		return -1;
	for (i = (size_t)at[depth - 1]; i < n && p[i] != ' '; i++)
		;
	return i < n ? (int)i + 1 : at[depth - 1] + 1;
}

void gp_opt_usage(const gp_cmd_desc *d, FILE *fp)
{
	const char *p = d->synopsis ? d->synopsis : "";
	int i, n = count(d), col, open = -1;

	/* One usage per line; a line that starts with a blank goes on the
	 * one before, under its first option, or under the value of a group
	 * the line before left open ("[--queue fifo|...|" goes on under
	 * "fifo"). */
	for (i = 0; *p || i == 0; i++) {
		size_t len = strcspn(p, "\n"), lead = strspn(p, " ");

		if (lead && i) {
			col = open >= 0 ? open : (int)strlen(d->name) + 15;
			fprintf(fp, "%*s%.*s\n", col, "", (int)(len - lead), p + lead);
		} else {
			lead = 0;
			col = fprintf(fp, "%s gpuplan %s ", i ? "      " : "usage:", d->name);
			fprintf(fp, "%.*s\n", (int)len, p);
		}
		open = open_group(p + lead, len - lead);
		if (open >= 0)
			open += col;
		p += len;
		if (*p == '\n')
			p++;
	}
	if (d->about)
		fprintf(fp, "\n%s", d->about);
	if (n)
		fputc('\n', fp);
	for (i = 0; i < n; i++) {
		const gp_opt *o = nth(d, i);
		char head[96];
		int len;

		if (o->heading)
			fprintf(fp, "%s\n", o->heading);
		if (o->hidden)
			continue;
		if (o->sc)
			len = snprintf(head, sizeof(head), "  -%c, --%s%s%s", o->sc, o->name,
				       o->arg ? " " : "", o->arg ? o->arg : "");
		else
			len = snprintf(head, sizeof(head), "  --%s%s%s", o->name, o->arg ? " " : "",
				       o->arg ? o->arg : "");
		fputs(head, fp);
		if (o->help)
			put_lines(fp, o->help, 23, len);
		else
			fputc('\n', fp);
	}
	if (d->more)
		fprintf(fp, "\n%s", d->more);
	for (i = 0; d->subs && d->subs[i]; i++) {
		fputc('\n', fp);
		gp_opt_usage(d->subs[i], fp);
	}
}

const char *gp_cli_usage_text(const gp_command *c)
{
	static struct {
		const gp_command *c;
		char *text;
	} made[32];
	size_t i, len;
	FILE *fp;

	for (i = 0; i < GP_ARRAY_SIZE(made) && made[i].c; i++)
		if (made[i].c == c)
			return made[i].text;
	if (i == GP_ARRAY_SIZE(made))
		i = 0;  /* more commands than slots: make it again (never so far) */
	free(made[i].text);
	made[i].text = NULL;
	fp = open_memstream(&made[i].text, &len);
	if (!fp)
		return "";
	gp_opt_usage(c->desc, fp);
	fclose(fp);
	made[i].c = c;
	return made[i].text ? made[i].text : "";
}
