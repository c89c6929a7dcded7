/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* main.c - the fatprealloc command line: options, messages, exit codes. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <popt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "image.h"
#include "map.h"
#include "messages.h"
#include "path.h"
#include "plan.h"
#include "report.h"
#include "size.h"
#include "tree.h"
#include "util.h"
#include "vol.h"

static int usage_error(const char *fmt, const char *arg)
{
	fputs(PROG ": ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return cli_try_help();
}

/* The GNU coding standards' --version: name and version, the copyright
 * holder, the license and the lack of warranty. */
static void print_version(void)
{
	fputs(PROG " " PACKAGE_VERSION "\n"
	      "Copyright (C) 2026 The fatprealloc authors.\n"
	      "License GPLv3+: GNU GPL version 3 or later"
	      " <https://gnu.org/licenses/gpl.html>.\n"
	      "This is free software: you are free to change and"
	      " redistribute it.\n"
	      "There is NO WARRANTY, to the extent permitted by law.\n", stdout);
}

static void print_help(void)
{
	fputs("Usage: " PROG " [OPTIONS] IMAGE ::PATH SIZE [::PATH SIZE ...]\n"
	      "       " PROG " [OPTIONS] IMAGE SRC ::DEST [SRC ::DEST ...]\n"
	      "       " PROG " --verify [--json] [--strict] IMAGE\n"
	      "       " PROG " --map [--json] IMAGE ::PATH...\n"
	      "       " PROG " --trim IMAGE ::PATH...\n"
	      "       " PROG " --fill-holes IMAGE\n"
	      "\n"
	      "Preallocate files in an unmounted FAT12/16/32 image, as\n"
	      "fallocate(1) does at offset 0, without writing their data;\n"
	      "or copy host files and trees into it (SRC ::DEST, in any mix\n"
	      "with ::PATH SIZE), all planned before anything is written.\n"
	      "\n"
	      "Options:\n"
	      " -n, --keep-size        allocate clusters, keep the file size\n"
	      " -z, --zero             with -n, zero the allocated clusters\n"
	      "     --punch-holes      zero new clusters by punching holes in\n"
	      "                        IMAGE: faster and smaller, but lost\n"
	      "                        when a flasher skips holes (bmaptool)\n"
	      " -c, --contiguous       new clusters of each file in one run\n"
	      " -p, --parents          create missing directories\n"
	      "     --place WHERE      new clusters from the volume's start\n"
	      "                        (default) or packed against its end\n"
	      " -o, --offset BYTES     the filesystem starts at BYTES into\n"
	      "                        IMAGE (also IMAGE@@BYTES, as mtools):\n"
	      "                        decimal, 0x hex or 0 octal, with an\n"
	      "                        optional S (512-byte sectors), K, M, G\n"
	      " -P, --partition N      use partition N of an MBR or GPT\n"
	      "     --wait             wait for another process's lock\n"
	      " -t, --timestamp EPOCH  time of new entries (UTC), default\n"
	      "                        $SOURCE_DATE_EPOCH, else now (local)\n"
	      "     --dry-run          print the plan, write nothing\n"
	      " -J, --json             print JSON: what was allocated, the\n"
	      "                        plan (--dry-run), the report\n"
	      "                        (--verify) or the map (--map)\n"
	      "     --manifest FILE    more ::PATH SIZE or SRC ::DEST pairs,\n"
	      "                        one a line, from FILE (- for stdin);\n"
	      "                        only ::PATHs with --map or --trim;\n"
	      "                        # comments; may be repeated: the\n"
	      "                        files are read in order, as one\n"
	      "                        (- at most once)\n"
	      "     --verify           check IMAGE read-only, fsck-style\n"
	      "     --strict           with --verify: warnings are errors\n"
	      "     --map              print where the files' clusters are\n"
	      "     --trim             free the clusters past each named\n"
	      "                        file's size (what -n leaves)\n"
	      "     --fill-holes       write zeros into the holes of IMAGE\n"
	      "                        that hold metadata or used clusters,\n"
	      "                        for flashers that skip holes\n"
	      "     --force            go on although the image is dirty, its\n"
	      "                        FAT copies differ, or it is attached\n"
	      "                        to a loop device\n"
	      "     --no-sync          skip the final fsync\n"
	      " -v, --verbose          print what was done\n"
	      " -q, --quiet            print errors only\n"
	      "     --progress         show progress on stderr even when it\n"
	      "                        is not a terminal, or with -q\n"
	      " -C, --progress-fd FD   write \"pass done total IMAGE\" lines\n"
	      "                        to descriptor FD, as e2fsck -C (0:\n"
	      "                        the same as --progress)\n"
	      " -h, --help             display this help\n"
	      " -V, --version          display version\n"
	      "\n"
	      "Refused as usage errors: --verify or --map with -n, -z, -c,\n"
	      "-p, --place, -t, --dry-run, --force, --no-sync, --punch-holes\n"
	      "or each other; --verify with --manifest; --map with\n"
	      "--progress or -C; -q with -v; -z without -n; --punch-holes\n"
	      "with -n but without -z; --strict without --verify;\n"
	      "--fill-holes with anything but -o, -P, --wait, --force,\n"
	      "--no-sync, -v and -q.\n"
	      "\n"
	      "Copies: SRC is a host file or directory (symbolic links are\n"
	      "followed); a directory's tree appears at DEST, merged with a\n"
	      "directory there; a file goes to DEST, or into DEST/ when it\n"
	      "ends in a slash.  An existing file at DEST, special files\n"
	      "and files over 4 GiB - 1 are refused before anything is\n"
	      "written (exit 8).  Entries are made in name order; times are\n"
	      "the sources' mtimes, clamped to -t or $SOURCE_DATE_EPOCH and\n"
	      "then in UTC, else in local time.  -n, -z and --punch-holes\n"
	      "apply to ::PATH SIZE pairs only.\n"
	      "\n"
	      "A ::PATH that ends in a slash names a directory: refused\n"
	      "with SIZE or --trim (exit 16), mapped only if it is one.\n"
	      "\n"
	      "SIZE is bytes, with an optional suffix K, M, G, T (or KiB,\n"
	      "MiB, GiB, TiB: powers of 1024) or KB, MB, GB, TB (powers\n"
	      "of 1000); at most 4294967295 (4 GiB - 1).  0x is hex; a\n"
	      "fraction before a suffix (1.5M) is rounded down to bytes.\n"
	      "\n"
	      "Exit status: 0 done (--verify: no errors), 4 image\n"
	      "inconsistent (--verify: errors found), 8 operational error\n"
	      "(--verify: cannot check), 16 usage error.\n", stdout);
}

/* Parse a decimal epoch; 0 on success. */
static int parse_epoch(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || end == s)
		return -1;
	*out = v;
	return 0;
}

static int pick_time(struct cli *c)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");

	c->utc = 1;
	c->clamp = c->timestamp || sde;
	if (c->timestamp) {
		if (parse_epoch(c->timestamp, &c->time))
			return usage_error("invalid timestamp '%s'",
					   c->timestamp);
	} else if (sde) {
		if (parse_epoch(sde, &c->time))
			return usage_error("invalid SOURCE_DATE_EPOCH '%s'",
					   sde);
	} else {
		c->time = (int64_t)time(NULL);
		c->utc = 0;
	}
	return EXIT_OK;
}

/* Requests @a and @b (a < b) name the same file. */
static int duplicate(const struct cli *c, size_t a, size_t b)
{
	const char *sa = c->rq.srcs[a].host, *sb = c->rq.srcs[b].host;

	if (!sa || !sb)
		return usage_error("'::%s' is given twice",
				   c->rq.reqs[b].path);
	cli_msg("'%s' and '%s' both go to '::%s' (FAT names ignore case)", sa,
	    sb, c->rq.reqs[b].path);
	return cli_try_help();
}

/* A file named twice is a usage error, found before the image is read. */
static int check_duplicates(const struct cli *c)
{
	size_t a, b;
	enum fp_err err = fp_reqs_find_dup(&c->rq, &a, &b);

	if (err == FP_E_DUPPATH)
		return duplicate(c, a, b);
	if (err) {
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	return EXIT_OK;
}

/* Append the request @path (after its ::) of @size. */
static int add_req(struct cli *c, const char *path, uint64_t size)
{
	if (fp_reqs_add(&c->rq, path, size)) {
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	return EXIT_OK;
}

/* The length of @s without trailing slashes. */
static size_t trim_len(const char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == '/')
		n--;
	return n;
}

/*
 * 1 if volume path @path ends in a slash.  On the command line such a
 * path names a directory, as mtools 4.0.43 reads a target, although the
 * library skips trailing slashes: never a file to preallocate or trim,
 * only a directory to map, or to copy a file into.
 */
static int ends_in_slash(const char *path)
{
	size_t n = strlen(path);

	return n && path[n - 1] == '/';
}

/* The usage error of ::PATH @arg, which ends in a slash, given for a file. */
static int not_a_file(const char *arg)
{
	return usage_error("'%s' ends in a slash, so it names a directory, "
			   "not a file", arg);
}

/* Why the source tree cannot be copied, naming the host path. */
static int tree_error(const struct fp_tree_diag *d, enum fp_err err)
{
	if (err == FP_E_SRC && d->link && d->errnum == ENOENT)
		cli_msg("'%s' is a symbolic link to nothing; nothing was written",
		    d->path);
	else if (err == FP_E_SRC)
		cli_msg("cannot read '%s': %s; nothing was written", d->path,
		    strerror(d->errnum));
	else if (err == FP_E_SPECIAL)
		cli_msg("'%s' is not a regular file or directory; only those are "
		    "copied; nothing was written", d->path);
	else if (err == FP_E_LOOP)
		cli_msg("'%s' leads back to a directory that holds it (a symbolic "
		    "link loop); nothing was written", d->path);
	else if (err == FP_E_TOOBIG)
		cli_msg("'%s' is larger than 4294967295 bytes (4 GiB - 1), the "
		    "largest FAT file; nothing was written", d->path);
	else if (err == FP_E_SNAPBIG)
		cli_msg("'%s' says size 0 but holds more than %u bytes (64 MiB), "
		    "the most read into memory from such a file; nothing was "
		    "written", d->path, (unsigned)FP_TREE_SNAP_MAX);
	else
		cli_msg("cannot copy '%s': %s", d->path, fp_strerror(err));
	return EXIT_OPERATIONAL;
}

/*
 * SRC ::DEST: scan SRC and add a request for each of its directories and
 * files (fp_reqs_add_copy()).
 */
static int add_copy(struct cli *c, const char *src, const char *dest)
{
	struct fp_tree_diag d;
	uint64_t size;
	enum fp_err err;

	if (strncmp(dest, "::", 2))
		return usage_error("destination '%s' does not start with ::",
				   dest);
	err = fp_reqs_add_copy(&c->rq, src, dest + 2,
			       c->clamp ? &c->time : NULL, &d);
	if (err == FP_E_SRC && d.errnum == ENOENT && !d.link &&
	    !fp_size_parse(src, &size))
		return usage_error("no source file '%s'; to preallocate, "
				   "give ::PATH SIZE, the path first", src);
	if (err == FP_E_NOMEM && !*d.path) {
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	return err ? tree_error(&d, err) : EXIT_OK;
}

/* --map or --trim IMAGE ::PATH...: requests without sizes. */
static int parse_map_paths(struct cli *c, const char **args, size_t n)
{
	size_t i;
	int ret = EXIT_OK;

	for (i = 0; i < n && !ret; i++) {
		if (strncmp(args[i], "::", 2))
			return usage_error("path '%s' does not start with ::",
					   args[i]);
		if (c->trim && ends_in_slash(args[i]))
			return not_a_file(args[i]);
		ret = add_req(c, args[i] + 2, 0);
	}
	return ret;
}

/* A SIZE that does not parse, or is too big for FAT: say what would do. */
static int size_error(const struct cli *c, const char *size, const char *path,
		      int too_big)
{
	if (too_big)
		cli_msg("'%s': size '%s' for '%s' is above %llu bytes (4 GiB - 1), "
		    "the largest FAT file", c->image, size, path,
		    FP_FILE_MAX);
	else
		cli_msg("'%s': invalid size '%s' for '%s': give bytes, or a "
		    "number with K, M, G, T (powers of 1024, also KiB...) or "
		    "KB, MB, GB, TB (powers of 1000)", c->image, size, path);
	return cli_try_help();
}

/*
 * Turn the ::PATH SIZE and SRC ::DEST pairs of the command line into
 * requests: a pair whose first word starts with :: is a preallocation.
 */
static int parse_pairs(struct cli *c, const char **args, size_t n)
{
	uint64_t bytes;
	size_t i;
	int ret = EXIT_OK;

	if (n % 2)
		return usage_error("%s", strncmp(args[n - 1], "::", 2) ?
				   "missing ::DEST after the last source" :
				   "missing SIZE after the last path");
	for (i = 0; i < n / 2 && !ret; i++) {
		const char *path = args[2 * i], *size = args[2 * i + 1];

		if (strncmp(path, "::", 2)) {
			ret = add_copy(c, path, size);
			continue;
		}
		if (ends_in_slash(path))
			return not_a_file(path);
		if (fp_size_parse(size, &bytes))
			return size_error(c, size, path, 0);
		if (bytes > FP_FILE_MAX)
			return size_error(c, size, path, 1);
		ret = add_req(c, path + 2, bytes);
	}
	return ret;
}

/* -P N: a partition number from 1 to 1024. */
static int parse_partition(struct cli *c)
{
	char *end;
	unsigned long n;

	if (!c->partition_arg)
		return EXIT_OK;
	if (c->has_offset)
		return usage_error("%s", "give either an offset or "
				   "--partition, not both");
	errno = 0;
	n = strtoul(c->partition_arg, &end, 10);
	if (errno || *end || end == c->partition_arg || n < 1 || n > 1024 ||
	    c->partition_arg[0] == '-' || c->partition_arg[0] == '+')
		return usage_error("invalid partition number '%s'",
				   c->partition_arg);
	c->partition = (unsigned)n;
	return EXIT_OK;
}

/* IMAGE or IMAGE@@OFFSET (mtools syntax), or -o OFFSET. */
static int parse_image(struct cli *c, const char *arg)
{
	const char *at = strstr(arg, "@@");
	const char *off = c->offset_arg;

	if (at && off)
		return usage_error("%s", "give the offset either as -o or as "
				   "IMAGE@@OFFSET, not both");
	c->image = strndup(arg, at ? (size_t)(at - arg) : strlen(arg));
	if (!c->image) {
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	if (at)
		off = at + 2;
	if (off && fp_size_parse_offset(off, &c->offset))
		return usage_error("invalid offset '%s'", off);
	c->has_offset = off != NULL;
	return parse_partition(c);
}

/*
 * The options named in opt_rules[]: popt returns an option's value, which
 * parse_args() collects in a mask of OPT_BIT(value).
 */
enum cli_opt {
	OPT_KEEP_SIZE = 1, OPT_ZERO, OPT_CONTIGUOUS, OPT_PARENTS,
	OPT_TIMESTAMP, OPT_DRY_RUN, OPT_FORCE, OPT_NO_SYNC, OPT_VERIFY,
	OPT_MAP, OPT_STRICT, OPT_VERBOSE, OPT_QUIET, OPT_PROGRESS,
	OPT_TRIM, OPT_PUNCH_HOLES, OPT_FILL_HOLES, OPT_JSON, OPT_MANIFEST,
	OPT_PROGRESS_FD, OPT_PLACE, OPT_OFFSET, OPT_PARTITION,
};

#define OPT_BIT(o) (1u << (o))
/* What only a preallocation reads (--dry-run is one). */
#define OPT_PREALLOC (OPT_BIT(OPT_KEEP_SIZE) | OPT_BIT(OPT_ZERO) | \
		      OPT_BIT(OPT_CONTIGUOUS) | OPT_BIT(OPT_PARENTS) | \
		      OPT_BIT(OPT_TIMESTAMP) | OPT_BIT(OPT_DRY_RUN) | \
		      OPT_BIT(OPT_FORCE) | OPT_BIT(OPT_NO_SYNC) | \
		      OPT_BIT(OPT_PUNCH_HOLES) | OPT_BIT(OPT_PLACE))

/*
 * Options that contradict each other, one table as util-linux's UL_EXCL
 * ones: given @opt, no option of @excludes may be given and every option
 * of @needs must be, for the reason @why (or NULL); a rule with @when
 * applies only when every option of @when is given too.  A --dry-run
 * takes every preallocation option, so that it previews any command line.
 */
struct opt_rule {
	enum cli_opt opt;
	unsigned excludes;
	unsigned needs;
	const char *why;
	unsigned when;
};

static const struct opt_rule opt_rules[] = {
	{ OPT_VERIFY, OPT_PREALLOC | OPT_BIT(OPT_MAP) | OPT_BIT(OPT_TRIM) |
	  OPT_BIT(OPT_MANIFEST), 0, NULL, 0 },
	{ OPT_FILL_HOLES, (OPT_PREALLOC & ~(OPT_BIT(OPT_NO_SYNC) |
					    OPT_BIT(OPT_FORCE))) |
	  OPT_BIT(OPT_VERIFY) | OPT_BIT(OPT_MAP) | OPT_BIT(OPT_JSON) |
	  OPT_BIT(OPT_PROGRESS) | OPT_BIT(OPT_PROGRESS_FD) | OPT_BIT(OPT_TRIM) |
	  OPT_BIT(OPT_MANIFEST), 0, NULL, 0 },
	{ OPT_MAP, OPT_PREALLOC | OPT_BIT(OPT_PROGRESS) |
	  OPT_BIT(OPT_PROGRESS_FD) | OPT_BIT(OPT_TRIM), 0, NULL, 0 },
	{ OPT_TRIM, OPT_BIT(OPT_KEEP_SIZE) | OPT_BIT(OPT_ZERO) |
	  OPT_BIT(OPT_CONTIGUOUS) | OPT_BIT(OPT_PARENTS) |
	  OPT_BIT(OPT_TIMESTAMP) | OPT_BIT(OPT_PROGRESS) |
	  OPT_BIT(OPT_PROGRESS_FD) | OPT_BIT(OPT_JSON) | OPT_BIT(OPT_PLACE) |
	  OPT_BIT(OPT_PUNCH_HOLES), 0, NULL, 0 },
	{ OPT_QUIET, OPT_BIT(OPT_VERBOSE), 0, NULL, 0 },
	{ OPT_ZERO, 0, OPT_BIT(OPT_KEEP_SIZE),
	  "without it new clusters are zeroed anyway", 0 },
	{ OPT_STRICT, 0, OPT_BIT(OPT_VERIFY),
	  "it counts the warnings of --verify as errors", 0 },
	{ OPT_PUNCH_HOLES, 0, OPT_BIT(OPT_ZERO),
	  "with --keep-size alone nothing is zeroed",
	  OPT_BIT(OPT_KEEP_SIZE) },
};

/* The long name of the option of value @val in @opts. */
static const char *opt_name(const struct poptOption *opts, int val)
{
	for (; opts->longName; opts++)
		if (opts->val == val)
			return opts->longName;
	return "?";
}

/* The first rule of opt_rules[] that the options in @given break. */
static int check_conflicts(const struct poptOption *opts, unsigned given)
{
	const struct opt_rule *r;
	unsigned bad;
	int o;

	for (r = opt_rules; r < opt_rules + ARRAY_SIZE(opt_rules); r++) {
		bad = (given & r->excludes) | (~given & r->needs);
		if (!(given & OPT_BIT(r->opt)) || !bad ||
		    (given & r->when) != r->when)
			continue;
		for (o = 0; !(bad & OPT_BIT(o)); o++)
			;
		if (given & OPT_BIT(o))
			cli_msg("options --%s and --%s cannot be combined",
			    opt_name(opts, r->opt), opt_name(opts, o));
		else
			cli_msg("option --%s needs --%s%s%s",
			    opt_name(opts, r->opt), opt_name(opts, o),
			    r->why ? "; " : "", r->why ? r->why : "");
		return cli_try_help();
	}
	return EXIT_OK;
}

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
static int add_manifest(struct cli *c, char *name)
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
			return usage_error("%s", "'--manifest -' is given "
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
 * Line @line of manifest @name, trimmed, from @p to @end: "::PATH SIZE",
 * where SIZE is the last word and PATH all before it (so PATH may hold
 * spaces), or "::PATH" alone for --map and --trim.  The line is cut in
 * place.
 */
static int manifest_line(struct cli *c, const char *name, size_t line,
			 char *p, char *end)
{
	char *size = NULL, *q;
	uint64_t bytes = 0;

	if (!c->map && !c->trim && strncmp(p, "::", 2) &&
	    (q = copy_dest(p)) != NULL)
		return add_copy(c, p, q);
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
	if (!c->map && ends_in_slash(p))
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
	return add_req(c, p + 2, bytes);
}

/*
 * --manifest FILE (@m): its lines join the requests of the command line
 * and of the manifests before it.  Blank lines and lines whose first
 * non-blank character is # are skipped; each other line is trimmed and
 * read by manifest_line().
 */
static int parse_manifest(struct cli *c, struct cli_manifest *m)
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

/* IMAGE and what follows it. */
static int parse_operands(struct cli *c)
{
	const char **args = poptGetArgs(c->con);
	size_t i, n = 0;
	int ret;

	if (!args || !args[0])
		return usage_error("%s", "no IMAGE given");
	while (args[1 + n])
		n++;
	ret = parse_image(c, args[0]);
	if (!ret && c->verify && n)
		ret = usage_error("%s", "--verify takes only IMAGE");
	else if (!ret && c->fill_holes && n)
		ret = usage_error("%s", "--fill-holes takes only IMAGE");
	else if (!ret && (c->map || c->trim))
		ret = parse_map_paths(c, args + 1, n);
	else if (!ret && !c->verify && !c->fill_holes)
		ret = pick_time(c);
	if (!ret && !c->verify && !c->map && !c->trim && !c->fill_holes)
		ret = parse_pairs(c, args + 1, n);
	for (i = 0; !ret && i < c->manifest_count; i++)
		ret = parse_manifest(c, &c->manifests[i]);
	if (ret || c->verify || c->fill_holes)
		return ret;
	if (!c->rq.count)
		return usage_error("%s", c->trim ? "--trim needs at least one "
				   "::PATH" : c->map ? "--map needs at least "
				   "one ::PATH" :
				   "no ::PATH SIZE or SRC ::DEST given");
	/* --map and --trim may name a file twice */
	return c->map || c->trim ? EXIT_OK : check_duplicates(c);
}

/*
 * -C FD: a descriptor open for writing.  0, as in e2fsck(8), asks for the
 * line a terminal shows, which this tool draws on stderr: --progress.
 */
static int parse_progress_fd(struct cli *c)
{
	const char *s = c->progress_fd_arg;
	char *end;
	long n;
	int fl;

	c->progress_fd = -1;
	if (!s)
		return EXIT_OK;
	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || *end || end == s || !(*s >= '0' && *s <= '9') ||
	    n > INT_MAX)
		return usage_error("invalid file descriptor '%s'", s);
	if (n == 0) {
		c->progress = 1;
		return EXIT_OK;
	}
	fl = fcntl((int)n, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY)
		return usage_error("file descriptor '%s' is not open for "
				   "writing", s);
	c->progress_fd = (int)n;
	return EXIT_OK;
}

/*
 * The value of string option @opt, just read.  popt stores a string
 * option's value in its variable anew each time, losing the one before;
 * so the table gives these options no variable and their values are
 * taken here, with poptGetOptArg(): the last one wins, except that every
 * --manifest is read.
 */
static int take_string(struct cli *c, int opt)
{
	char **to;

	switch (opt) {
	case OPT_PLACE:
		to = &c->place;
		break;
	case OPT_TIMESTAMP:
		to = &c->timestamp;
		break;
	case OPT_OFFSET:
		to = &c->offset_arg;
		break;
	case OPT_PARTITION:
		to = &c->partition_arg;
		break;
	case OPT_PROGRESS_FD:
		to = &c->progress_fd_arg;
		break;
	case OPT_MANIFEST:
		return add_manifest(c, poptGetOptArg(c->con));
	default:
		return EXIT_OK;
	}
	free(*to);
	*to = poptGetOptArg(c->con);
	if (*to)
		return EXIT_OK;
	cli_msg("out of memory");
	return EXIT_OPERATIONAL;
}

static int parse_args(struct cli *c, int argc, const char **argv)
{
	struct poptOption opts[] = {
		{ "keep-size", 'n', POPT_ARG_NONE, &c->keep_size,
		  OPT_KEEP_SIZE, NULL, NULL },
		{ "zero", 'z', POPT_ARG_NONE, &c->zero,
		  OPT_ZERO, NULL, NULL },
		{ "punch-holes", 0, POPT_ARG_NONE, &c->punch_holes,
		  OPT_PUNCH_HOLES, NULL, NULL },
		{ "contiguous", 'c', POPT_ARG_NONE, &c->contiguous,
		  OPT_CONTIGUOUS, NULL, NULL },
		{ "parents", 'p', POPT_ARG_NONE, &c->parents,
		  OPT_PARENTS, NULL, NULL },
		{ "place", 0, POPT_ARG_STRING, NULL,
		  OPT_PLACE, NULL, NULL },
		{ "timestamp", 't', POPT_ARG_STRING, NULL,
		  OPT_TIMESTAMP, NULL, NULL },
		{ "offset", 'o', POPT_ARG_STRING, NULL,
		  OPT_OFFSET, NULL, NULL },
		{ "partition", 'P', POPT_ARG_STRING, NULL,
		  OPT_PARTITION, NULL, NULL },
		{ "wait", 0, POPT_ARG_NONE, &c->wait,
		  0, NULL, NULL },
		{ "dry-run", 0, POPT_ARG_NONE, &c->dry_run,
		  OPT_DRY_RUN, NULL, NULL },
		{ "json", 'J', POPT_ARG_NONE, &c->json,
		  OPT_JSON, NULL, NULL },
		{ "manifest", 0, POPT_ARG_STRING, NULL,
		  OPT_MANIFEST, NULL, NULL },
		{ "trim", 0, POPT_ARG_NONE, &c->trim,
		  OPT_TRIM, NULL, NULL },
		{ "force", 0, POPT_ARG_NONE, &c->force,
		  OPT_FORCE, NULL, NULL },
		{ "verify", 0, POPT_ARG_NONE, &c->verify,
		  OPT_VERIFY, NULL, NULL },
		{ "map", 0, POPT_ARG_NONE, &c->map,
		  OPT_MAP, NULL, NULL },
		{ "fill-holes", 0, POPT_ARG_NONE, &c->fill_holes,
		  OPT_FILL_HOLES, NULL, NULL },
		{ "strict", 0, POPT_ARG_NONE, &c->strict,
		  OPT_STRICT, NULL, NULL },
		{ "no-sync", 0, POPT_ARG_NONE, &c->no_sync,
		  OPT_NO_SYNC, NULL, NULL },
		{ "verbose", 'v', POPT_ARG_NONE, &c->verbose,
		  OPT_VERBOSE, NULL, NULL },
		{ "quiet", 'q', POPT_ARG_NONE, &c->quiet,
		  OPT_QUIET, NULL, NULL },
		{ "progress", 0, POPT_ARG_NONE, &c->progress,
		  OPT_PROGRESS, NULL, NULL },
		{ "progress-fd", 'C', POPT_ARG_STRING, NULL,
		  OPT_PROGRESS_FD, NULL, NULL },
		{ "help", 'h', POPT_ARG_NONE, &c->help,
		  0, NULL, NULL },
		{ "version", 'V', POPT_ARG_NONE, &c->version,
		  0, NULL, NULL },
		POPT_TABLEEND
	};
	unsigned given = 0;
	int rc;

	/* c->con owns the strings that c->rq.reqs will point to */
	c->con = poptGetContext(PROG, argc, argv, opts, 0);
	while ((rc = poptGetNextOpt(c->con)) > 0) {
		given |= OPT_BIT(rc);
		rc = take_string(c, rc);
		if (rc)
			return rc;
	}
	if (rc < -1) {
		fprintf(stderr, PROG ": %s '%s'\n", poptStrerror(rc),
			poptBadOption(c->con, 0));
		return cli_try_help();
	}
	if (c->help || c->version)
		return EXIT_OK;
	rc = check_conflicts(opts, given);
	if (!rc)
		rc = parse_progress_fd(c);
	if (!rc && c->place && strcmp(c->place, "start") &&
	    strcmp(c->place, "end"))
		rc = usage_error("invalid --place '%s': give start or end",
				 c->place);
	return rc ? rc : parse_operands(c);
}

/*
 * Refuse an inconsistent volume unless --force: @err and @diag from
 * fp_vol_check() before planning, fp_plan_check_copies() after it.
 */
static int check_fs(const struct cli *c, struct fp_img *img, enum fp_err err,
		    const struct fp_fs_diag *diag)
{
	if (err == FP_E_IO || err == FP_E_NOMEM)
		return cli_fs_error(c, img, err);
	if (err && !c->force)
		return cli_check_error(c, err, diag);
	return EXIT_OK;
}

/*
 * Progress as the CLI renders it: the meter line on stderr, and with -C FD
 * e2fsck's completion lines, "PASS DONE TOTAL DEVICE\n" (e2fsck -C), on FD.
 * There is one pass, 1, whether checking, zeroing or writing copies.
 */
struct cli_progress {
	struct cli_meter meter;
	int meter_on;
	int fd;			/* -1: none, or no longer */
	const char *image;
	struct fp_progress prog;
};

/*
 * A line that cannot be written to FD (its reader went away: EPIPE, as
 * SIGPIPE is ignored) ends the lines, never the work: -C does not change
 * what is written or the exit status.
 */
static void progress_update(void *ctx, uint64_t done, uint64_t total)
{
	struct cli_progress *p = ctx;

	if (p->meter_on)
		cli_meter_update(&p->meter, done, total);
	if (p->fd >= 0 &&
	    dprintf(p->fd, "1 %" PRIu64 " %" PRIu64 " %s\n", done, total,
		    p->image) < 0)
		p->fd = -1;
}

/*
 * A progress line for @what on stderr: with --progress, else when stderr
 * is a terminal and -q is not given; completion lines with -C FD.
 */
static const struct fp_progress *progress_on(const struct cli *c,
					     struct cli_progress *p,
					     const char *what)
{
	cli_meter_init(&p->meter, stderr, PROG, what, c->image);
	p->meter_on = c->progress || (!c->quiet && isatty(STDERR_FILENO));
	p->fd = c->progress_fd;
	p->image = c->image;
	p->prog.fn = progress_update;
	p->prog.ctx = p;
	return p->meter_on || p->fd >= 0 ? &p->prog : NULL;
}

static int print_result(const struct cli *c, struct fp_img *img,
			const struct fp_fs *fs, struct fp_plan *plan)
{
	struct cli_free_space sp = { 0, 0, 0 };
	enum fp_err err;

	if (!c->json && !c->dry_run && !c->verbose)
		return EXIT_OK;
	err = fp_plan_free_count(plan, &sp.count);
	if (!err && !c->trim)	/* reads the whole FAT: only when shown */
		err = fp_plan_largest_run(plan, &sp.run_start, &sp.run_count);
	if (err)
		return cli_fs_error(c, img, err);
	if (c->json)
		cli_report_plan_json(stdout, c->image, fs, plan, &sp,
				    c->dry_run);
	else
		cli_report_plan_text(stdout, fs, plan, &sp, !c->dry_run);
	return EXIT_OK;
}

/*
 * The commit failed.  A source that cannot be read or changed is found
 * while file data is written, before any FAT or directory write: only
 * free clusters have been written.
 */
static int commit_error(const struct cli *c, struct fp_img *img,
			enum fp_err err, const struct fp_plan_diag *d)
{
	const char *src = c->rq.srcs[d->req].host;

	if (err == FP_E_SRC)
		cli_msg("cannot read '%s': %s; only free clusters of '%s' were "
		    "written", src, strerror(d->errnum), c->image);
	else if (err == FP_E_CHANGED)
		cli_msg("'%s' changed while it was copied; only free clusters of "
		    "'%s' were written", src, c->image);
	else
		cli_msg("cannot write '%s': %s", c->image, err == FP_E_IO ?
		    strerror(fp_img_errno(img)) : fp_strerror(err));
	return EXIT_OPERATIONAL;
}

/* 1 if a request copies a host file (its data is written). */
static int has_copies(const struct cli *c)
{
	size_t i;

	for (i = 0; i < c->rq.count; i++)
		if (c->rq.srcs[i].host && !c->rq.srcs[i].is_dir)
			return 1;
	return 0;
}

static int run_plan(const struct cli *c, struct fp_img *img,
		    struct fp_fs *fs)
{
	struct fp_plan_opts po = {
		.keep_size = c->keep_size, .zero = c->zero,
		.punch_holes = c->punch_holes,
		.contiguous = c->contiguous, .parents = c->parents,
		.trim = c->trim,
		.place_end = c->place && !strcmp(c->place, "end"),
		.time = c->time, .utc = c->utc, .srcs = c->rq.srcs,
	};
	struct fp_fs_diag fsd = { 0 };
	struct fp_plan_diag diag;
	struct fp_plan *plan;
	struct cli_progress prog;
	enum fp_err err;
	int ret = EXIT_OK;

	po.progress = progress_on(c, &prog,
				  has_copies(c) ? "writing" : "zeroing");
	err = fp_plan_build(fs, &po, c->rq.reqs, c->rq.count, &plan, &diag);
	if (err)
		return cli_plan_error(c, img, err, &diag, fp_fs_geom(fs));
	err = fp_plan_check_copies(plan, &fsd);
	ret = check_fs(c, img, err, &fsd);
	if (ret) {
		fp_plan_free(plan);
		return ret;
	}
	if (c->keep_size && !c->quiet && !c->trim)
		cli_msg("note: clusters past a file's size are reused by FatFs "
		    "firmware and freed by fsck.fat, but Linux remounts the "
		    "volume read-only when it grows such a file, and 7-Zip "
		    "and libparted refuse them; without -n Linux can append");
	if (!c->dry_run) {
		err = fp_plan_commit(plan, c->no_sync);
		cli_meter_end(&prog.meter);
		if (err)
			ret = commit_error(c, img, err, &diag);
	}
	if (!ret)
		ret = print_result(c, img, fs, plan);
	fp_plan_free(plan);
	return ret;
}

/*
 * Open IMAGE (read-only unless @write) and the volume in it, as the
 * options say (fp_vol_open()); with @fs its FAT too.
 */
static int open_vol(const struct cli *c, int write, int fs,
		    struct fp_vol **vol)
{
	unsigned flags = (write ? FP_VOL_WRITE : 0) |
			 (c->force ? FP_VOL_FORCE : 0) |
			 (c->wait ? FP_VOL_WAIT : 0) |
			 (c->has_offset ? FP_VOL_OFFSET : 0) |
			 (c->verify || c->map ? FP_VOL_NOWRITE : 0) |
			 (fs ? 0 : FP_VOL_NOFS);
	struct fp_vol_diag d;
	enum fp_err err;

	err = fp_vol_open(c->image, c->partition, c->offset, flags, vol, &d);
	if (d.step >= FP_VOL_STEP_WINDOW)
		cli_vol_notes(c, &d.loc);
	return err ? cli_vol_error(c, err, &d) : EXIT_OK;
}

/* Close @vol written to, whose close may fail. */
static int close_vol(const struct cli *c, struct fp_vol *vol, int ret)
{
	int errnum = 0;

	if (fp_vol_close(vol, &errnum) && !ret) {
		cli_msg("cannot close '%s': %s", c->image, strerror(errnum));
		ret = EXIT_OPERATIONAL;
	}
	return ret;
}

static int run_verify(const struct cli *c)
{
	struct fp_report *r = NULL;
	struct cli_progress prog;
	struct fp_vol *vol;
	enum fp_err err;
	int ret;

	ret = open_vol(c, 0, 0, &vol);
	if (ret)
		return ret;
	err = fp_vol_verify(vol, progress_on(c, &prog, "checking"), &r);
	cli_meter_end(&prog.meter);
	if (err) {
		ret = cli_fs_error(c, fp_vol_img(vol), err);
	} else {
		if (c->json)
			cli_report_verify_json(stdout, c->image, r);
		else if (!c->quiet || r->errors ||
			 (c->strict && r->warnings))
			cli_report_verify_text(stdout, r);
		ret = r->errors || (c->strict && r->warnings) ?
		      EXIT_INCONSISTENT : EXIT_OK;
	}
	fp_report_free(r);
	fp_vol_close(vol, NULL);
	return ret;
}

/*
 * Print one file's map; 0 or an exit code.  *shown counts the maps
 * printed, as a JSON element needs a comma after the first one.
 */
static int map_one(const struct cli *c, struct fp_img *img,
		   struct fp_fs *fs, size_t i, size_t *shown)
{
	struct fp_plan_diag diag;
	struct fp_map m;
	enum fp_err err;

	err = fp_map_load(fs, c->rq.reqs[i].path, &m, &diag);
	if (!err && !m.is_dir && ends_in_slash(c->rq.reqs[i].path)) {
		/* "::NAME/" names a directory */
		fp_map_release(&m);
		snprintf(diag.component, sizeof(diag.component), "%.*s",
			 (int)trim_len(c->rq.reqs[i].path), c->rq.reqs[i].path);
		err = FP_E_NOTDIR;
	}
	if (err) {
		diag.req = i;
		return cli_plan_error(c, img, err, &diag, fp_fs_geom(fs));
	}
	if (c->json) {
		fputs(*shown ? "," : "", stdout);
		cli_report_map_json(stdout, c->rq.reqs[i].path, &m,
				   fp_fs_geom(fs), fp_img_base(img));
	} else {
		cli_report_map_text(stdout, c->rq.reqs[i].path, &m,
				   fp_fs_geom(fs), fp_img_base(img));
	}
	fp_map_release(&m);
	(*shown)++;
	return EXIT_OK;
}

static int run_map(const struct cli *c)
{
	struct fp_vol *vol;
	struct fp_img *img;
	struct fp_fs *fs;
	size_t i, shown = 0;
	int ret, rc;

	ret = open_vol(c, 0, 1, &vol);
	if (ret)
		return ret;
	img = fp_vol_img(vol);
	fs = fp_vol_fs(vol);
	if (c->json) {
		fputs("{\"image\":", stdout);
		cli_report_json_string(stdout, c->image);
		printf(",\"volume_offset\":%" PRIu64 ",\"cluster_size\":%"
		       PRIu32 ",\"files\":[", fp_img_base(img),
		       fp_fs_geom(fs)->clus_len);
	}
	for (i = 0; i < c->rq.count; i++) {
		rc = map_one(c, img, fs, i, &shown);
		if (rc && !ret)
			ret = rc;
	}
	if (c->json)
		puts("]}");
	fp_vol_close(vol, NULL);
	return ret;
}

/* --fill-holes: zeros into the holes that a hole-skipping flash loses. */
static int run_fill(const struct cli *c)
{
	struct fp_vol *vol;
	struct fp_img *img;
	uint64_t bytes, count;
	enum fp_err err;
	int ret;

	ret = open_vol(c, 1, 1, &vol);
	if (ret)
		return ret;
	img = fp_vol_img(vol);
	err = fp_fs_fill_holes(fp_vol_fs(vol), &bytes, &count);
	if (!err && !c->no_sync)
		err = fp_img_sync(img);
	if (err) {
		cli_msg("cannot write '%s': %s", c->image, err == FP_E_IO ?
		    strerror(fp_img_errno(img)) : fp_strerror(err));
		ret = EXIT_OPERATIONAL;
	} else if (c->verbose) {
		printf("%s: wrote %" PRIu64 " bytes of zeros into %" PRIu64
		       " hole%s\n", c->image, bytes, count,
		       count == 1 ? "" : "s");
	}
	return close_vol(c, vol, ret);
}

static int run(const struct cli *c)
{
	struct fp_fs_diag diag = { 0 };
	struct fp_vol *vol;
	struct fp_img *img;
	enum fp_err err;
	int ret;

	ret = open_vol(c, !c->dry_run, 1, &vol);
	if (ret)
		return ret;
	img = fp_vol_img(vol);
	err = fp_vol_check(vol, &diag);
	ret = check_fs(c, img, err, &diag);
	if (!ret)
		ret = run_plan(c, img, fp_vol_fs(vol));
	return close_vol(c, vol, ret);
}

/*
 * A reader that goes away (head) must not kill a run that is writing the
 * image, as SIGPIPE would, wherever the run is: a write to stdout, stderr
 * or the -C descriptor fails with EPIPE instead, and is dropped.
 */
static void ignore_sigpipe(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

/*
 * 1 if stdout is a pipe whose reader has gone away, for a write error
 * seen by an earlier flush, whose errno is gone.
 */
static int stdout_reader_gone(void)
{
	struct pollfd pfd = { .fd = STDOUT_FILENO, .events = POLLOUT };

	return poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLERR);
}

/*
 * Flush and close stdout.  A failure is exit 8 with a message, except a
 * reader that went away (EPIPE): it took what it wanted, and the exit
 * status stays that of the work done, as util-linux tools do.
 */
static int close_stdout(int ret)
{
	int err = 0;

	errno = 0;
	if (fflush(stdout) || ferror(stdout))
		err = errno == EPIPE || stdout_reader_gone() ? EPIPE :
		      errno ? errno : EIO;
	if (fclose(stdout) && !err)
		err = errno ? errno : EIO;
	if (!err || err == EPIPE)
		return ret;
	cli_msg("write error: %s", strerror(err));
	return ret ? ret : EXIT_OPERATIONAL;
}

int main(int argc, const char **argv)
{
	struct cli c;
	size_t i;
	int ret;

	memset(&c, 0, sizeof(c));
	ignore_sigpipe();
	ret = parse_args(&c, argc, argv);
	if (!ret && c.help)
		print_help();
	else if (!ret && c.version)
		print_version();
	else if (!ret && c.verify)
		ret = run_verify(&c);
	else if (!ret && c.map)
		ret = run_map(&c);
	else if (!ret && c.fill_holes)
		ret = run_fill(&c);
	else if (!ret)
		ret = run(&c);
	fp_reqs_release(&c.rq);
	for (i = 0; i < c.manifest_count; i++) {
		free(c.manifests[i].name);
		free(c.manifests[i].buf);
	}
	free(c.manifests);
	free(c.image);
	free(c.timestamp);
	free(c.offset_arg);
	free(c.partition_arg);
	free(c.progress_fd_arg);
	free(c.place);
	poptFreeContext(c.con);
	return close_stdout(ret);
}
