/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* manifest.c - --manifest FILE: more requests, one a line (CLI only). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "messages.h"
#include "size.h"
#include "util.h"

/* The name of manifest @name in messages. */
static const char *manifest_name(const char *name)
{
	return strcmp(name, "-") ? name : "standard input";
}

/*
 * --manifest FILE, once more: the manifests are read in the order given,
 * as if they were one file; standard input only once, as it is read to
 * its end.  @name is malloc'd, and kept even on failure.
 */
int cli_add_manifest(struct cli *c, char *name)
{
	size_t i;

	if (!name || fp_grow(&c->manifests, &c->manifest_cap,
			     c->manifest_count, sizeof(*c->manifests))) {
		free(name);
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	c->manifests[c->manifest_count].name = name;
	c->manifests[c->manifest_count++].buf = NULL;
	for (i = 0; i + 1 < c->manifest_count; i++)
		if (!strcmp(name, "-") && !strcmp(c->manifests[i].name, "-"))
			return cli_usage_error("%s", "'--manifest -' is given "
					   "twice; standard input is read "
					   "only once");
	return EXIT_OK;
}

/* Read all of manifest @m into m->buf, NUL-terminated. */
static int read_manifest(struct cli_manifest *m, size_t *len)
{
	FILE *f = strcmp(m->name, "-") ? fopen(m->name, "r") : stdin;
	size_t cap = 0, n = 0, got;
	char *buf = NULL, *nb;
	int ret = EXIT_OK;

	if (!f) {
		cli_msg("cannot open '%s': %s", m->name, strerror(errno));
		return EXIT_OPERATIONAL;
	}
	do {
		if (cap - n < 4096) {
			cap = cap ? 2 * cap : 65536;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				cli_msg("out of memory");
				ret = EXIT_OPERATIONAL;
				goto out;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		cli_msg("cannot read '%s': %s", manifest_name(m->name),
		    strerror(errno));
		ret = EXIT_OPERATIONAL;
		goto out;
	}
	buf[n] = '\0';
	m->buf = buf;
	*len = n;
	buf = NULL;
out:
	free(buf);
	if (f != stdin)
		fclose(f);
	return ret;
}

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' ||
	       ch == '\f';
}

/* A usage error at line @line of manifest @name. */
static int manifest_error(const char *name, size_t line, const char *fmt,
			  const char *arg, const char *arg2)
{
	if (strcmp(name, "-"))
		fprintf(stderr, PROG ": '%s' line %zu: ", name, line);
	else
		fprintf(stderr, PROG ": standard input line %zu: ", line);
	fprintf(stderr, fmt, arg, arg2);
	fputc('\n', stderr);
	return cli_try_help();
}

/*
 * A manifest line "SRC ::DEST": split at the first blanks followed by ::
 * (so SRC and DEST may hold spaces, and DEST may not start with one).
 */
static char *copy_dest(char *p)
{
	char *d;

	for (; *p; p++) {
		if (!is_blank(*p))
			continue;
		d = p + strspn(p, " \t\r\v\f");
		if (!strncmp(d, "::", 2)) {
			*p = '\0';
			return d;
		}
	}
	return NULL;
}

/*
 * The edit verbs of a manifest line ("rm [-r] ::PATH", "mv ::A ::B",
 * "mkdir ::DIR", "attr SPEC ::PATH", "label NAME"): the first word of the
 * line.  They come before "SRC ::DEST", so a host file named like a verb
 * is copied as "./rm ::DEST".  Each handler gets the rest of the line
 * after the verb and its blanks, and adds its request (or fails with a
 * message and an exit code).
 */
struct manifest_verb {
	const char *word;
	int (*line)(struct cli *c, const char *name, size_t line,
		    char *args);
};

/*
 * The rest @args of line @line of an edit @verb: an optional @flag ("-r",
 * "-p") and its blanks, then "::PATH" (spaces included); *path: after
 * the ::, *has_flag: whether @flag was there.  Edits join a plan: not
 * with --map or --trim.
 */
static int edit_args(const struct cli *c, const char *name, size_t line,
		     const char *verb, char *args, const char *flag,
		     int *has_flag, char **path)
{
	size_t n = strlen(flag);

	*has_flag = 0;
	if (c->map || c->trim)
		return manifest_error(name, line, "'%s' lines are edits, not "
				      "taken with --map or --trim%s", verb,
				      "");
	if (!strncmp(args, flag, n) && (!args[n] || is_blank(args[n]))) {
		*has_flag = 1;
		args += n + strspn(args + n, " \t\r\v\f");
	}
	if (strncmp(args, "::", 2))
		return manifest_error(name, line, "'%s' takes a ::PATH, not "
				      "'%s'", verb, args);
	*path = args + 2;
	return EXIT_OK;
}

/* "rm [-r] ::PATH" */
static int rm_line(struct cli *c, const char *name, size_t line,
		   char *args)
{
	struct fp_req_edit ed = { FP_REQ_RM, 0, NULL, 0, 0 };
	char *path;
	int r, ret = edit_args(c, name, line, "rm", args, "-r", &r, &path);

	if (ret)
		return ret;
	ed.flags = r ? FP_EDIT_RECURSIVE : 0;
	return cli_add_edit(c, path, &ed);
}

/* "mkdir [-p] ::DIR" */
static int mkdir_line(struct cli *c, const char *name, size_t line,
		      char *args)
{
	struct fp_req_edit ed = { FP_REQ_MKDIR, 0, NULL, 0, 0 };
	char *path;
	int p, ret = edit_args(c, name, line, "mkdir", args, "-p", &p, &path);

	if (ret)
		return ret;
	ed.flags = p ? FP_EDIT_PARENTS : 0;
	return cli_add_edit(c, path, &ed);
}


/* "attr SPEC ::PATH": PATH is the rest of the line, spaces and all. */
static int attr_line(struct cli *c, const char *name, size_t line,
		     char *args)
{
	char *spec = args, *path = args;
	int ret;

	if (c->map || c->trim)
		return manifest_error(name, line, "an 'attr' line is taken "
				      "only when the run writes%s%s", "", "");
	while (*path && !is_blank(*path))
		path++;
	if (*path)
		*path++ = '\0';
	path += strspn(path, " \t\r\v\f");
	if (!*spec || strncmp(path, "::", 2))
		return manifest_error(name, line, "give 'attr SPEC ::PATH'%s%s",
				      "", "");
	ret = cli_add_attr(c, spec, path);
	if (ret >= 0)
		return ret;
	return manifest_error(name, line, "invalid attribute SPEC '%s': %s",
			      spec, CLI_ATTR_SPEC_HINT);
}

/*
 * "label NAME": NAME is the rest of the line, spaces inside it kept;
 * "label \"\"" removes the label.  One a run.
 */
static int label_line(struct cli *c, const char *name, size_t line,
		      char *args)
{
	int ret, twice;

	if (c->map || c->trim)
		return manifest_error(name, line, "a 'label' line is taken "
				      "only when the run writes%s%s", "", "");
	if (!*args)
		return manifest_error(name, line, "give 'label NAME', or "
				      "'label \"\"' to remove the label%s%s",
				      "", "");
	if (!strcmp(args, "\"\""))
		*args = '\0';
	ret = cli_add_label(c, args, &twice);
	if (ret >= 0)
		return ret;
	if (twice)
		return manifest_error(name, line, "the label is given "
				      "twice%s%s", "", "");
	return manifest_error(name, line, "invalid label '%s': %s", args,
			      CLI_LABEL_HINT);
}

/*
 * "mv ::FROM ::TO": a move (--mv's), split as "SRC ::DEST" is, so FROM
 * may hold spaces; --replace applies.
 */
static int mv_line(struct cli *c, const char *name, size_t line,
		   char *args)
{
	char *to = NULL;

	if (c->map || c->trim)
		return manifest_error(name, line, "'mv %s': no moves with "
				      "--map or --trim%s", args, "");
	if (!strncmp(args, "::", 2))
		to = copy_dest(args);
	if (!to)
		return manifest_error(name, line, "'mv %s' is not "
				      "'mv ::FROM ::TO'%s", args, "");
	if (strspn(args + 2, "/") == strlen(args + 2))
		return manifest_error(name, line, "'mv %s': the root directory "
				      "cannot be moved%s", args, "");
	return cli_add_mv(c, args, to);
}

static const struct manifest_verb verbs[] = {
	{ "rm", rm_line },
	{ "mkdir", mkdir_line },
	{ "attr", attr_line },
	{ "label", label_line },
	{ "mv", mv_line },
	{ NULL, NULL }
};

/* The verb that line @p starts with, or NULL; *args: what follows it. */
static const struct manifest_verb *find_verb(char *p, char **args)
{
	const struct manifest_verb *v;
	size_t n = 0;

	while (p[n] && !is_blank(p[n]))
		n++;
	for (v = verbs; v->word; v++)
		if (strlen(v->word) == n && !strncmp(p, v->word, n)) {
			*args = p + n + strspn(p + n, " \t\r\v\f");
			return v;
		}
	return NULL;
}

/*
 * Line @line of manifest @name, trimmed, from @p to @end: an edit verb's
 * line (find_verb()), or "::PATH SIZE",
 * where SIZE is the last word and PATH all before it (so PATH may hold
 * spaces), or "::PATH" alone for --map and --trim.  The line is cut in
 * place.
 */
static int manifest_line(struct cli *c, const char *name, size_t line,
			 char *p, char *end)
{
	const struct manifest_verb *v;
	char *size = NULL, *q;
	uint64_t bytes = 0;

	v = find_verb(p, &q);
	if (v)
		return v->line(c, name, line, q);
	if (!c->map && !c->trim && strncmp(p, "::", 2) &&
	    (q = copy_dest(p)) != NULL)
		return cli_add_copy(c, p, q);
	if (!c->map && !c->trim) {
		for (q = end; q > p && !is_blank(q[-1]); q--)
			;
		if (q == p)
			return manifest_error(name, line, "no SIZE after "
					      "'%s'%s", p, "");
		size = q;
		while (q > p && is_blank(q[-1]))
			q--;
		*q = '\0';
	}
	if (strncmp(p, "::", 2))
		return manifest_error(name, line, "path '%s' does not start "
				      "with ::%s", p, "");
	if (!c->map && cli_ends_in_slash(p))
		return manifest_error(name, line, "'%s' ends in a slash, so "
				      "it names a directory, not a file%s", p,
				      "");
	if (size && fp_size_parse(size, &bytes))
		return manifest_error(name, line, "invalid size '%s' for "
				      "'%s'", size, p);
	if (bytes > FP_FILE_MAX)
		return manifest_error(name, line, "size '%s' for '%s' is above "
				      "4294967295 bytes (4 GiB - 1), the "
				      "largest FAT file", size, p);
	return cli_add_req(c, p + 2, bytes);
}

/*
 * --manifest FILE (@m): its lines join the requests of the command line
 * and of the manifests before it.  Blank lines and lines whose first
 * non-blank character is # are skipped; each other line is trimmed and
 * read by manifest_line().
 */
int cli_parse_manifest(struct cli *c, struct cli_manifest *m)
{
	size_t len = 0, line = 0;
	char *p, *nl, *end, *stop;
	int ret;

	ret = read_manifest(m, &len);
	if (ret)
		return ret;
	stop = m->buf + len;
	for (p = m->buf; !ret && p < stop; p = nl + 1) {
		line++;
		nl = memchr(p, '\n', (size_t)(stop - p));
		if (!nl)
			nl = stop;
		*nl = '\0';
		if (strlen(p) != (size_t)(nl - p))
			return manifest_error(m->name, line, "%s%s",
					      "a NUL byte in the line", "");
		while (is_blank(*p))
			p++;
		for (end = nl; end > p && is_blank(end[-1]); end--)
			;
		*end = '\0';
		if (*p && *p != '#')
			ret = manifest_line(c, m->name, line, p, end);
	}
	return ret;
}
