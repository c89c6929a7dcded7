/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* options.c - the command line read: options, their conflicts, operands. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "messages.h"
#include "path.h"
#include "reqs.h"
#include "size.h"
#include "tree.h"

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
			return cli_usage_error("invalid timestamp '%s'",
					   c->timestamp);
	} else if (sde) {
		if (parse_epoch(sde, &c->time))
			return cli_usage_error("invalid SOURCE_DATE_EPOCH '%s'",
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
	const char *sa = fp_reqs_src(c->rq, a)->host;
	const char *sb = fp_reqs_src(c->rq, b)->host;

	if (!sa || !sb)
		return cli_usage_error("'::%s' is given twice",
				   fp_reqs_path(c->rq, b));
	cli_msg("'%s' and '%s' both go to '::%s' (FAT names ignore case)", sa,
	    sb, fp_reqs_path(c->rq, b));
	return cli_try_help();
}

int cli_check_duplicates(const struct cli *c)
{
	size_t a, b;
	enum fp_err err = fp_reqs_find_dup(c->rq, &a, &b);

	if (err == FP_E_DUPPATH)
		return duplicate(c, a, b);
	if (err) {
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	return EXIT_OK;
}

/* The usage error of ::PATH @arg, which ends in a slash, given for a file. */
static int not_a_file(const char *arg)
{
	return cli_usage_error("'%s' ends in a slash, so it names a directory, "
			   "not a file", arg);
}

/* --map or --trim IMAGE ::PATH...: requests without sizes. */
static int parse_map_paths(struct cli *c, const char **args, size_t n)
{
	size_t i;
	int ret = EXIT_OK;

	for (i = 0; i < n && !ret; i++) {
		if (strncmp(args[i], "::", 2))
			return cli_usage_error("path '%s' does not start "
					   "with ::", args[i]);
		if (c->trim && cli_ends_in_slash(args[i]))
			return not_a_file(args[i]);
		ret = cli_add_req(c, args[i] + 2, 0);
	}
	return ret;
}

/* --list IMAGE [::PATH]: at most one path, the root without one. */
static int parse_list_path(struct cli *c, const char **args, size_t n)
{
	if (n > 1)
		return cli_usage_error("%s", "--list takes IMAGE and at most "
				   "one ::PATH");
	if (n && strncmp(args[0], "::", 2))
		return cli_usage_error("path '%s' does not start with ::",
				   args[0]);
	c->list_path = n ? args[0] + 2 : "/";
	return EXIT_OK;
}

/* --extract IMAGE ::PATH DEST. */
static int parse_extract(struct cli *c, const char **args, size_t n)
{
	if (n != 2)
		return cli_usage_error("%s", "--extract takes IMAGE, one "
				   "::PATH and DEST");
	if (strncmp(args[0], "::", 2))
		return cli_usage_error("path '%s' does not start with ::",
				   args[0]);
	if (!args[1][0] || !strncmp(args[1], "::", 2))
		return cli_usage_error("invalid DEST '%s': give a host path",
				   args[1]);
	c->ex_path = args[0] + 2;
	c->ex_dest = args[1];
	return EXIT_OK;
}

/*
 * --diff IMAGE1 IMAGE2: IMAGE1 is read as any IMAGE (c->image); IMAGE2
 * may have its own @@OFFSET, and takes -o otherwise.
 */
static int parse_diff(struct cli *c, const char **args, size_t n)
{
	const char *at, *off = c->offset_arg;

	if (n != 1)
		return cli_usage_error("%s", "--diff takes two images");
	at = strstr(args[0], "@@");
	if (at && off)
		return cli_usage_error("%s", "give the offset either as -o or "
				   "as IMAGE@@OFFSET, not both");
	c->image2 = strndup(args[0], at ? (size_t)(at - args[0]) :
			    strlen(args[0]));
	if (!c->image2) {
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	if (at)
		off = at + 2;
	if (off && fp_size_parse_offset(off, &c->offset2))
		return cli_usage_error("invalid offset '%s'", off);
	c->has_offset2 = off != NULL;
	if (c->has_offset2 && c->partition_arg)
		return cli_usage_error("%s", "give either an offset or "
				   "--partition, not both");
	return EXIT_OK;
}

/*
 * --rm or --mkdir IMAGE ::PATH...: an edit of each path, with -r or -p
 * as flags.
 */
static int parse_edit_paths(struct cli *c, const char **args, size_t n)
{
	struct fp_req_edit ed = { FP_REQ_RM, 0, NULL, 0, 0 };
	size_t i;
	int ret = EXIT_OK;

	if (c->mkdir) {
		ed.kind = FP_REQ_MKDIR;
		ed.flags = c->parents ? FP_EDIT_PARENTS : 0;
	} else if (c->recursive) {
		ed.flags = FP_EDIT_RECURSIVE;
	}
	for (i = 0; i < n && !ret; i++) {
		if (strncmp(args[i], "::", 2))
			return cli_usage_error("path '%s' does not start "
					   "with ::", args[i]);
		ret = cli_add_edit(c, args[i] + 2, &ed);
	}
	return ret;
}

/* --attr SPEC IMAGE ::PATH...: an attribute edit of each path. */
static int parse_attr_paths(struct cli *c, const char **args, size_t n)
{
	size_t i;
	int ret = EXIT_OK;

	for (i = 0; i < n && !ret; i++) {
		if (strncmp(args[i], "::", 2))
			return cli_usage_error("path '%s' does not start "
					   "with ::", args[i]);
		ret = cli_add_attr(c, c->attr_spec, args[i]);
		if (ret < 0) {
			cli_attr_spec_error(c->attr_spec);
			return cli_try_help();
		}
	}
	return ret;
}

/* The usage error of the label @name (or of a second one). */
static int label_error(const char *name, int twice)
{
	if (twice)
		return cli_usage_error("%s", "the label is given twice");
	cli_msg("invalid label '%s': " CLI_LABEL_HINT, name);
	return cli_try_help();
}

/* --label IMAGE [NAME]: print the label, or set it to NAME. */
static int parse_label(struct cli *c, const char **args, size_t n)
{
	int ret, twice;

	if (n > 1)
		return cli_usage_error("%s", "--label takes IMAGE and at most "
				   "one NAME");
	c->label_print = n == 0;
	if (c->label_print && (c->json || c->dry_run || c->force ||
			       c->no_sync || c->timestamp))
		return cli_usage_error("%s", "--label IMAGE prints the label; "
				   "--json, --dry-run, --force, --no-sync and "
				   "-t are for setting it (--label IMAGE "
				   "NAME)");
	if (c->label_print)
		return EXIT_OK;
	ret = cli_add_label(c, args[0], &twice);
	return ret < 0 ? label_error(args[0], twice) : ret;
}

/* A SIZE that does not parse, or is too big for FAT: say what would do. */
static int size_error(const struct cli *c, const char *size, const char *path,
		      int too_big)
{
	if (too_big)
		cli_msg("'%s': size '%s' for '%s' is above %llu bytes "
		    "(4 GiB - 1), the largest FAT file", c->image, size, path,
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
		return cli_usage_error("%s", strncmp(args[n - 1], "::", 2) ?
				   "missing ::DEST after the last source" :
				   "missing SIZE after the last path");
	for (i = 0; i < n / 2 && !ret; i++) {
		const char *path = args[2 * i], *size = args[2 * i + 1];

		if (strncmp(path, "::", 2)) {
			ret = cli_add_copy(c, path, size);
			continue;
		}
		if (cli_ends_in_slash(path))
			return not_a_file(path);
		if (fp_size_parse(size, &bytes))
			return size_error(c, size, path, 0);
		if (bytes > FP_FILE_MAX)
			return size_error(c, size, path, 1);
		ret = cli_add_req(c, path + 2, bytes);
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
		return cli_usage_error("%s", "give either an offset or "
				   "--partition, not both");
	errno = 0;
	n = strtoul(c->partition_arg, &end, 10);
	if (errno || *end || end == c->partition_arg || n < 1 || n > 1024 ||
	    c->partition_arg[0] == '-' || c->partition_arg[0] == '+')
		return cli_usage_error("invalid partition number '%s'",
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
		return cli_usage_error("%s", "give the offset either as -o or "
				   "as IMAGE@@OFFSET, not both");
	c->image = strndup(arg, at ? (size_t)(at - arg) : strlen(arg));
	if (!c->image) {
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	if (at)
		off = at + 2;
	if (off && fp_size_parse_offset(off, &c->offset))
		return cli_usage_error("invalid offset '%s'", off);
	c->has_offset = off != NULL;
	return parse_partition(c);
}

/*
 * The options named in opt_rules[]: popt returns an option's value, which
 * cli_parse_args() collects in a mask of OPT_BIT(value).
 */
enum cli_opt {
	OPT_KEEP_SIZE = 1, OPT_ZERO, OPT_CONTIGUOUS, OPT_PARENTS,
	OPT_TIMESTAMP, OPT_DRY_RUN, OPT_FORCE, OPT_NO_SYNC, OPT_VERIFY,
	OPT_MAP, OPT_STRICT, OPT_VERBOSE, OPT_QUIET, OPT_PROGRESS,
	OPT_TRIM, OPT_PUNCH_HOLES, OPT_FILL_HOLES, OPT_JSON, OPT_MANIFEST,
	OPT_PROGRESS_FD, OPT_PLACE, OPT_OFFSET, OPT_PARTITION, OPT_PROFILE,
	OPT_LIST, OPT_HASH,
	OPT_MKFS, OPT_SIZE, OPT_FREE, OPT_FAT, OPT_CLUSTER, OPT_SECTOR,
	OPT_FATS, OPT_RESERVED, OPT_HIDDEN, OPT_ROOT, OPT_MEDIA, OPT_ALIGN,
	OPT_LABEL, OPT_VOLUME_ID, OPT_BOOT_CODE,
	OPT_EXTRACT, OPT_REPLACE,
	OPT_DIFF, OPT_PLACEMENT,
	OPT_RM, OPT_MKDIR, OPT_RECURSIVE,
	OPT_ATTR,
	OPT_LABEL_MODE,	/* --label without --mkfs: not a popt value */
	OPT_MV,
	OPT_MIRROR,
};

#define OPT_BIT(o) (UINT64_C(1) << (o))
/* What only a preallocation reads (--dry-run is one). */
#define OPT_PREALLOC (OPT_BIT(OPT_KEEP_SIZE) | OPT_BIT(OPT_ZERO) | \
		      OPT_BIT(OPT_CONTIGUOUS) | OPT_BIT(OPT_PARENTS) | \
		      OPT_BIT(OPT_TIMESTAMP) | OPT_BIT(OPT_DRY_RUN) | \
		      OPT_BIT(OPT_FORCE) | OPT_BIT(OPT_NO_SYNC) | \
		      OPT_BIT(OPT_PUNCH_HOLES) | OPT_BIT(OPT_PLACE))
/* What only a writer reads: the preallocation options and --replace. */
#define OPT_COPYING (OPT_PREALLOC | OPT_BIT(OPT_REPLACE))
/* The run modes: each is a different command, at most one a run. */
#define OPT_MODES (OPT_BIT(OPT_VERIFY) | OPT_BIT(OPT_MAP) | \
		   OPT_BIT(OPT_TRIM) | OPT_BIT(OPT_FILL_HOLES) | \
		   OPT_BIT(OPT_LIST) | OPT_BIT(OPT_EXTRACT) | \
		   OPT_BIT(OPT_DIFF) | OPT_BIT(OPT_MKFS) | OPT_BIT(OPT_RM) | \
		   OPT_BIT(OPT_MKDIR) | OPT_BIT(OPT_MV) | OPT_BIT(OPT_ATTR) | \
		   OPT_BIT(OPT_LABEL_MODE) | OPT_BIT(OPT_MIRROR))
/* What only --mkfs reads. */
#define MKFS_RULE(o) { o, 0, OPT_BIT(OPT_MKFS), \
		       "it sets up the filesystem --mkfs makes", 0 }

/*
 * Options that contradict each other, one table as util-linux's UL_EXCL
 * ones: given @opt, no option of @excludes may be given and one option
 * of @needs must be, for the reason @why (or NULL); a rule with @when
 * applies only when every option of @when is given too.  A --dry-run
 * takes every preallocation option, so that it previews any command line.
 */
struct opt_rule {
	enum cli_opt opt;
	uint64_t excludes;
	uint64_t needs;
	const char *why;
	uint64_t when;
};

static const struct opt_rule opt_rules[] = {
	{ OPT_VERIFY, OPT_COPYING | OPT_BIT(OPT_MAP) | OPT_BIT(OPT_TRIM) |
	  OPT_BIT(OPT_MANIFEST), 0, NULL, 0 },
	{ OPT_FILL_HOLES, (OPT_PREALLOC & ~(OPT_BIT(OPT_NO_SYNC) |
					    OPT_BIT(OPT_FORCE))) |
	  OPT_BIT(OPT_VERIFY) | OPT_BIT(OPT_MAP) | OPT_BIT(OPT_JSON) |
	  OPT_BIT(OPT_PROGRESS) | OPT_BIT(OPT_PROGRESS_FD) | OPT_BIT(OPT_TRIM) |
	  OPT_BIT(OPT_MANIFEST), 0, NULL, 0 },
	{ OPT_MAP, OPT_COPYING | OPT_BIT(OPT_PROGRESS) |
	  OPT_BIT(OPT_PROGRESS_FD) | OPT_BIT(OPT_TRIM), 0, NULL, 0 },
	{ OPT_TRIM, OPT_BIT(OPT_KEEP_SIZE) | OPT_BIT(OPT_ZERO) |
	  OPT_BIT(OPT_CONTIGUOUS) | OPT_BIT(OPT_PARENTS) |
	  OPT_BIT(OPT_TIMESTAMP) | OPT_BIT(OPT_PROGRESS) |
	  OPT_BIT(OPT_PROGRESS_FD) | OPT_BIT(OPT_JSON) | OPT_BIT(OPT_PLACE) |
	  OPT_BIT(OPT_PUNCH_HOLES) | OPT_BIT(OPT_REPLACE), 0, NULL, 0 },
	{ OPT_LIST, OPT_COPYING | OPT_BIT(OPT_VERIFY) | OPT_BIT(OPT_MAP) |
	  OPT_BIT(OPT_TRIM) | OPT_BIT(OPT_FILL_HOLES) | OPT_BIT(OPT_MANIFEST) |
	  OPT_BIT(OPT_PROGRESS) | OPT_BIT(OPT_PROGRESS_FD), 0, NULL, 0 },
	{ OPT_HASH, 0, OPT_BIT(OPT_LIST), "it hashes the files --list lists",
	  0 },
	{ OPT_EXTRACT, OPT_PREALLOC | OPT_BIT(OPT_VERIFY) | OPT_BIT(OPT_MAP) |
	  OPT_BIT(OPT_TRIM) | OPT_BIT(OPT_FILL_HOLES) | OPT_BIT(OPT_MANIFEST) |
	  OPT_BIT(OPT_JSON) | OPT_BIT(OPT_PROGRESS) |
	  OPT_BIT(OPT_PROGRESS_FD) | OPT_BIT(OPT_LIST) | OPT_BIT(OPT_MKFS),
	  0, NULL, 0 },
	{ OPT_DIFF, OPT_COPYING | OPT_BIT(OPT_VERIFY) | OPT_BIT(OPT_MAP) |
	  OPT_BIT(OPT_TRIM) | OPT_BIT(OPT_FILL_HOLES) | OPT_BIT(OPT_MANIFEST) |
	  OPT_BIT(OPT_EXTRACT) | OPT_BIT(OPT_PROGRESS) |
	  OPT_BIT(OPT_PROGRESS_FD) | OPT_BIT(OPT_LIST) | OPT_BIT(OPT_MKFS),
	  0, NULL, 0 },
	{ OPT_PLACEMENT, 0, OPT_BIT(OPT_DIFF),
	  "it compares the clusters of each file of two images", 0 },
	{ OPT_RM, (OPT_PREALLOC & ~(OPT_BIT(OPT_DRY_RUN) | OPT_BIT(OPT_FORCE) |
				    OPT_BIT(OPT_NO_SYNC))) |
	  OPT_BIT(OPT_VERIFY) | OPT_BIT(OPT_MAP) | OPT_BIT(OPT_TRIM) |
	  OPT_BIT(OPT_FILL_HOLES) | OPT_BIT(OPT_MANIFEST) | OPT_BIT(OPT_MKDIR),
	  0, NULL, 0 },
	{ OPT_MKDIR, (OPT_PREALLOC & ~(OPT_BIT(OPT_DRY_RUN) |
				       OPT_BIT(OPT_FORCE) |
				       OPT_BIT(OPT_NO_SYNC) |
				       OPT_BIT(OPT_PARENTS) |
				       OPT_BIT(OPT_TIMESTAMP))) |
	  OPT_BIT(OPT_VERIFY) | OPT_BIT(OPT_MAP) | OPT_BIT(OPT_TRIM) |
	  OPT_BIT(OPT_FILL_HOLES) | OPT_BIT(OPT_MANIFEST), 0, NULL, 0 },
	{ OPT_RECURSIVE, 0, OPT_BIT(OPT_RM), "only --rm removes trees", 0 },
	{ OPT_ATTR, (OPT_PREALLOC & ~(OPT_BIT(OPT_DRY_RUN) |
				      OPT_BIT(OPT_FORCE) |
				      OPT_BIT(OPT_NO_SYNC))) |
	  OPT_BIT(OPT_VERIFY) | OPT_BIT(OPT_MAP) | OPT_BIT(OPT_TRIM) |
	  OPT_BIT(OPT_FILL_HOLES) | OPT_BIT(OPT_MANIFEST) |
	  OPT_BIT(OPT_PROGRESS) | OPT_BIT(OPT_PROGRESS_FD), 0, NULL, 0 },
	{ OPT_LABEL_MODE, (OPT_PREALLOC & ~(OPT_BIT(OPT_DRY_RUN) |
				       OPT_BIT(OPT_FORCE) |
				       OPT_BIT(OPT_NO_SYNC) |
				       OPT_BIT(OPT_TIMESTAMP))) |
	  OPT_BIT(OPT_VERIFY) | OPT_BIT(OPT_MAP) | OPT_BIT(OPT_TRIM) |
	  OPT_BIT(OPT_FILL_HOLES) | OPT_BIT(OPT_MANIFEST) |
	  OPT_BIT(OPT_ATTR) | OPT_BIT(OPT_PROGRESS) |
	  OPT_BIT(OPT_PROGRESS_FD), 0, NULL, 0 },
	{ OPT_MV, OPT_BIT(OPT_KEEP_SIZE) | OPT_BIT(OPT_ZERO) |
	  OPT_BIT(OPT_CONTIGUOUS) | OPT_BIT(OPT_PLACE) |
	  OPT_BIT(OPT_PUNCH_HOLES) | OPT_BIT(OPT_VERIFY) | OPT_BIT(OPT_MAP) |
	  OPT_BIT(OPT_TRIM) | OPT_BIT(OPT_FILL_HOLES), 0, NULL, 0 },
	{ OPT_MIRROR, OPT_BIT(OPT_KEEP_SIZE) | OPT_BIT(OPT_ZERO) |
	  OPT_BIT(OPT_PUNCH_HOLES) | OPT_BIT(OPT_MANIFEST), 0, NULL, 0 },
	{ OPT_QUIET, OPT_BIT(OPT_VERBOSE), 0, NULL, 0 },
	{ OPT_ZERO, 0, OPT_BIT(OPT_KEEP_SIZE),
	  "without it new clusters are zeroed anyway", 0 },
	{ OPT_STRICT, 0, OPT_BIT(OPT_VERIFY),
	  "it counts the warnings of --verify as errors", 0 },
	{ OPT_PROFILE, 0, OPT_BIT(OPT_VERIFY) | OPT_BIT(OPT_MKFS),
	  "it checks the volume against a boot target's rules", 0 },
	{ OPT_PUNCH_HOLES, 0, OPT_BIT(OPT_ZERO),
	  "with --keep-size alone nothing is zeroed",
	  OPT_BIT(OPT_KEEP_SIZE) },
	{ OPT_MKFS, OPT_BIT(OPT_VERIFY) | OPT_BIT(OPT_MAP) |
	  OPT_BIT(OPT_TRIM) | OPT_BIT(OPT_FILL_HOLES) | OPT_BIT(OPT_FORCE) |
	  OPT_BIT(OPT_LIST), 0, NULL, 0 },
	{ OPT_DRY_RUN, OPT_BIT(OPT_JSON), 0, NULL, OPT_BIT(OPT_MKFS) },
	{ OPT_SIZE, OPT_BIT(OPT_PARTITION), 0, NULL, 0 },
	MKFS_RULE(OPT_SIZE), MKFS_RULE(OPT_FREE), MKFS_RULE(OPT_FAT),
	MKFS_RULE(OPT_CLUSTER), MKFS_RULE(OPT_SECTOR), MKFS_RULE(OPT_FATS),
	MKFS_RULE(OPT_RESERVED), MKFS_RULE(OPT_HIDDEN), MKFS_RULE(OPT_ROOT),
	MKFS_RULE(OPT_MEDIA), MKFS_RULE(OPT_ALIGN),
	MKFS_RULE(OPT_VOLUME_ID), MKFS_RULE(OPT_BOOT_CODE),
	{ OPT_FREE, 0, OPT_BIT(OPT_SIZE), "it is the slack of --size auto",
	  0 },
};

/* The long name of the option of value @val in @opts. */
static const char *opt_name(const struct poptOption *opts, int val)
{
	if (val == OPT_LABEL_MODE)
		val = OPT_LABEL;
	for (; opts->longName; opts++)
		if (opts->val == val)
			return opts->longName;
	return "?";
}

/* The options of @mask by long name, "--a", "--a or --b", into @buf. */
static void opt_names(const struct poptOption *opts, uint64_t mask,
		      char *buf, size_t len)
{
	size_t n = 0;
	int o, w;

	buf[0] = '\0';
	for (o = 0; o < 64 && n < len; o++) {
		if (!(mask & OPT_BIT(o)))
			continue;
		mask &= ~OPT_BIT(o);
		w = snprintf(buf + n, len - n, "%s--%s", n ? " or " : "",
			     opt_name(opts, o));
		n += w < 0 ? len : (size_t)w;
	}
}

/*
 * Two run modes in @given (after opt_rules[], whose messages come first):
 * the two lowest, as one rule would name them.
 */
static int check_modes(const struct poptOption *opts, uint64_t given)
{
	uint64_t m = given & OPT_MODES;
	int a, b;

	if (!(m & (m - 1)))
		return EXIT_OK;
	for (a = 0; !(m & OPT_BIT(a)); a++)
		;
	for (b = a + 1; !(m & OPT_BIT(b)); b++)
		;
	cli_msg("options --%s and --%s cannot be combined",
	    opt_name(opts, a), opt_name(opts, b));
	return cli_try_help();
}

/* The first rule of opt_rules[] that the options in @given break. */
static int check_conflicts(const struct poptOption *opts, uint64_t given)
{
	const struct opt_rule *r;
	uint64_t bad;
	char names[128];
	int o;

	for (r = opt_rules; r < opt_rules + ARRAY_SIZE(opt_rules); r++) {
		bad = (given & r->excludes) |
		      (given & r->needs ? 0 : r->needs);
		if (!(given & OPT_BIT(r->opt)) || !bad ||
		    (given & r->when) != r->when)
			continue;
		for (o = 0; !(bad & OPT_BIT(o)); o++)
			;
		if (given & OPT_BIT(o)) {
			cli_msg("options --%s and --%s cannot be combined",
			    opt_name(opts, r->opt), opt_name(opts, o));
		} else {
			opt_names(opts, r->needs, names, sizeof(names));
			cli_msg("option --%s needs %s%s%s",
			    opt_name(opts, r->opt), names,
			    r->why ? "; " : "", r->why ? r->why : "");
		}
		return cli_try_help();
	}
	return EXIT_OK;
}

/*
 * --replace: every file a copy writes may replace an existing one (a
 * copied directory still merges).
 */
static void mark_replace(struct cli *c)
{
	size_t i;

	for (i = 0; c->replace && i < fp_reqs_count(c->rq); i++)
		if (fp_reqs_src(c->rq, i)->host &&
		    !fp_reqs_src(c->rq, i)->is_dir)
			fp_reqs_add_flags(c->rq, i, FP_EDIT_REPLACE);
}

/* What a run that names no ::PATH is told, by its mode. */
static const char *no_paths(const struct cli *c)
{
	if (c->trim)
		return "--trim needs at least one ::PATH";
	if (c->map)
		return "--map needs at least one ::PATH";
	if (c->rm)
		return "--rm needs at least one ::PATH";
	if (c->mkdir)
		return "--mkdir needs at least one ::DIR";
	if (c->attr_spec)
		return "--attr needs at least one ::PATH";
	return "no ::PATH SIZE or SRC ::DEST given";
}

/* IMAGE and what follows it. */
/* 1 if a request of @c copies a host file or tree in. */
static int has_copy(const struct cli *c)
{
	size_t i;

	for (i = 0; i < fp_reqs_count(c->rq); i++)
		if (fp_reqs_src(c->rq, i)->host)
			return 1;
	return 0;
}

/*
 * --mirror IMAGE SRC_DIR ::DEST_DIR: the requests come once the image is
 * open (fp_mirror_add()); SRC_DIR is checked to be a directory here when
 * it can be read, its errors otherwise come with the scan.
 */
static int parse_mirror(struct cli *c, const char **args, size_t n)
{
	struct stat st;

	if (n != 2 || !strncmp(args[0], "::", 2))
		return cli_usage_error("%s", "--mirror takes IMAGE, SRC_DIR and "
				   "::DEST_DIR");
	if (strncmp(args[1], "::", 2))
		return cli_usage_error("destination '%s' does not start with ::",
				   args[1]);
	if (!stat(args[0], &st) && !S_ISDIR(st.st_mode))
		return cli_usage_error("'%s' is not a directory; --mirror "
				   "makes a directory equal to one", args[0]);
	c->mirror_src = args[0];
	c->mirror_dest = args[1] + 2;
	return EXIT_OK;
}

/*
 * --label IMAGE [NAME]: popt takes the word after --label as its value
 * (--mkfs's NAME) unless it starts with a dash; that word is IMAGE here,
 * and the operands follow it.
 */
static int parse_label_mode(struct cli *c, const char **args)
{
	const char *ops[3];
	size_t n = 0;
	int ret;

	if (c->mk.label)
		ops[n++] = c->mk.label;
	for (; args && *args && n < 3; args++)
		ops[n++] = *args;
	if (!n)
		return cli_usage_error("%s", "no IMAGE given");
	ret = parse_image(c, ops[0]);
	if (!ret)
		ret = pick_time(c);
	return ret ? ret : parse_label(c, ops + 1, n - 1);
}

static int parse_operands(struct cli *c)
{
	const char **args = poptGetArgs(c->con);
	size_t i, n = 0;
	int ret;

	if (c->label)
		return parse_label_mode(c, args);
	if (!args || !args[0])
		return cli_usage_error("%s", "no IMAGE given");
	while (args[1 + n])
		n++;
	ret = parse_image(c, args[0]);
	if (!ret && c->verify && n)
		ret = cli_usage_error("%s", "--verify takes only IMAGE");
	else if (!ret && c->fill_holes && n)
		ret = cli_usage_error("%s", "--fill-holes takes only IMAGE");
	else if (!ret && c->list)
		return parse_list_path(c, args + 1, n);
	else if (!ret && c->extract)
		return parse_extract(c, args + 1, n);
	else if (!ret && c->diff)
		return parse_diff(c, args + 1, n);
	else if (!ret && (c->map || c->trim))
		ret = parse_map_paths(c, args + 1, n);
	else if (!ret && !c->verify && !c->fill_holes)
		ret = pick_time(c);
	if (!ret && (c->rm || c->mkdir))
		ret = parse_edit_paths(c, args + 1, n);
	else if (!ret && c->attr_spec)
		ret = parse_attr_paths(c, args + 1, n);
	else if (!ret && c->mv)
		ret = n == 2 ? cli_add_mv(c, args[1], args[2]) :
		      cli_usage_error("%s", "--mv takes IMAGE ::FROM ::TO");
	else if (!ret && c->mirror)
		return parse_mirror(c, args + 1, n);
	else if (!ret && !c->verify && !c->map && !c->trim && !c->fill_holes)
		ret = parse_pairs(c, args + 1, n);
	for (i = 0; !ret && i < c->manifest_count; i++)
		ret = cli_parse_manifest(c, &c->manifests[i]);
	if (!ret && c->replace && !c->mv && !has_copy(c))
		return cli_usage_error("%s", "option --replace needs a copy "
				   "(SRC ::DEST), --mv or --extract: it lets "
				   "them replace files");
	if (ret || c->verify || c->fill_holes)
		return ret;
	if (c->mkfs && !fp_reqs_count(c->rq))
		return EXIT_OK;	/* an empty filesystem */
	if (!fp_reqs_count(c->rq))
		return cli_usage_error("%s", no_paths(c));
	mark_replace(c);
	/* --map and --trim may name a file twice */
	return c->map || c->trim ? EXIT_OK : cli_check_duplicates(c);
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
		return cli_usage_error("invalid file descriptor '%s'", s);
	if (n == 0) {
		c->progress = 1;
		return EXIT_OK;
	}
	fl = fcntl((int)n, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY)
		return cli_usage_error("file descriptor '%s' is not open for "
				   "writing", s);
	c->progress_fd = (int)n;
	return EXIT_OK;
}

/* --profile NAME: one of fp_profile_at()'s names. */
static int parse_profile(struct cli *c)
{
	const struct fp_profile *p;
	char names[128] = "";
	size_t i, n = 0;

	if (!c->profile_arg)
		return EXIT_OK;
	c->profile = fp_profile_find(c->profile_arg);
	if (c->profile)
		return EXIT_OK;
	for (i = 0; (p = fp_profile_at(i)) && n < sizeof(names); i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
				      !i ? "" : fp_profile_at(i + 1) ? ", " :
				      " or ", fp_profile_name(p));
	cli_msg("unknown profile '%s': give %s", c->profile_arg, names);
	return cli_try_help();
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
	char **mk[] = {
		[OPT_SIZE] = &c->mk.size, [OPT_FREE] = &c->mk.free,
		[OPT_FAT] = &c->mk.fat, [OPT_CLUSTER] = &c->mk.cluster,
		[OPT_SECTOR] = &c->mk.sector, [OPT_FATS] = &c->mk.fats,
		[OPT_RESERVED] = &c->mk.reserved, [OPT_HIDDEN] = &c->mk.hidden,
		[OPT_ROOT] = &c->mk.root, [OPT_MEDIA] = &c->mk.media,
		[OPT_ALIGN] = &c->mk.align, [OPT_LABEL] = &c->mk.label,
		[OPT_VOLUME_ID] = &c->mk.volume_id,
		[OPT_BOOT_CODE] = &c->mk.boot_code,
	};
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
	case OPT_PROFILE:
		to = &c->profile_arg;
		break;
	case OPT_ATTR:
		to = &c->attr_spec;
		break;
	case OPT_MANIFEST:
		return cli_add_manifest(c, poptGetOptArg(c->con));
	default:
		if (opt < OPT_SIZE || opt > OPT_BOOT_CODE)
			return EXIT_OK;
		to = mk[opt];
		break;
	}
	free(*to);
	*to = poptGetOptArg(c->con);
	if (*to || opt == OPT_LABEL)	/* its value is optional */
		return EXIT_OK;
	cli_msg("out of memory");
	return EXIT_OPERATIONAL;
}

int cli_parse_args(struct cli *c, int argc, const char **argv)
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
		{ "replace", 0, POPT_ARG_NONE, &c->replace,
		  OPT_REPLACE, NULL, NULL },
		{ "mv", 0, POPT_ARG_NONE, &c->mv,
		  OPT_MV, NULL, NULL },
		{ "mirror", 0, POPT_ARG_NONE, &c->mirror,
		  OPT_MIRROR, NULL, NULL },
		{ "force", 0, POPT_ARG_NONE, &c->force,
		  OPT_FORCE, NULL, NULL },
		{ "verify", 0, POPT_ARG_NONE, &c->verify,
		  OPT_VERIFY, NULL, NULL },
		{ "map", 0, POPT_ARG_NONE, &c->map,
		  OPT_MAP, NULL, NULL },
		{ "fill-holes", 0, POPT_ARG_NONE, &c->fill_holes,
		  OPT_FILL_HOLES, NULL, NULL },
		{ "list", 0, POPT_ARG_NONE, &c->list,
		  OPT_LIST, NULL, NULL },
		{ "hash", 0, POPT_ARG_NONE, &c->hash,
		  OPT_HASH, NULL, NULL },
		{ "extract", 0, POPT_ARG_NONE, &c->extract,
		  OPT_EXTRACT, NULL, NULL },
		{ "diff", 0, POPT_ARG_NONE, &c->diff,
		  OPT_DIFF, NULL, NULL },
		{ "placement", 0, POPT_ARG_NONE, &c->placement,
		  OPT_PLACEMENT, NULL, NULL },
		{ "rm", 0, POPT_ARG_NONE, &c->rm,
		  OPT_RM, NULL, NULL },
		{ "recursive", 'r', POPT_ARG_NONE, &c->recursive,
		  OPT_RECURSIVE, NULL, NULL },
		{ "mkdir", 0, POPT_ARG_NONE, &c->mkdir,
		  OPT_MKDIR, NULL, NULL },
		{ "attr", 0, POPT_ARG_STRING, NULL,
		  OPT_ATTR, NULL, NULL },
		{ "strict", 0, POPT_ARG_NONE, &c->strict,
		  OPT_STRICT, NULL, NULL },
		{ "profile", 0, POPT_ARG_STRING, NULL,
		  OPT_PROFILE, NULL, NULL },
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
		{ "mkfs", 0, POPT_ARG_NONE, &c->mkfs,
		  OPT_MKFS, NULL, NULL },
		{ "size", 0, POPT_ARG_STRING, NULL, OPT_SIZE, NULL, NULL },
		{ "free", 0, POPT_ARG_STRING, NULL, OPT_FREE, NULL, NULL },
		{ "fat", 0, POPT_ARG_STRING, NULL, OPT_FAT, NULL, NULL },
		{ "cluster-size", 0, POPT_ARG_STRING, NULL,
		  OPT_CLUSTER, NULL, NULL },
		{ "sector-size", 0, POPT_ARG_STRING, NULL,
		  OPT_SECTOR, NULL, NULL },
		{ "fats", 0, POPT_ARG_STRING, NULL, OPT_FATS, NULL, NULL },
		{ "reserved", 0, POPT_ARG_STRING, NULL,
		  OPT_RESERVED, NULL, NULL },
		{ "hidden", 0, POPT_ARG_STRING, NULL, OPT_HIDDEN, NULL, NULL },
		{ "root-entries", 0, POPT_ARG_STRING, NULL,
		  OPT_ROOT, NULL, NULL },
		{ "media", 0, POPT_ARG_STRING, NULL, OPT_MEDIA, NULL, NULL },
		{ "align", 0, POPT_ARG_STRING, NULL, OPT_ALIGN, NULL, NULL },
		/* optional: --label IMAGE [NAME] and --label --json IMAGE */
		{ "label", 0, POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
		  OPT_LABEL, NULL, NULL },
		{ "volume-id", 0, POPT_ARG_STRING, NULL,
		  OPT_VOLUME_ID, NULL, NULL },
		{ "boot-code", 0, POPT_ARG_STRING, NULL,
		  OPT_BOOT_CODE, NULL, NULL },
		{ "help", 'h', POPT_ARG_NONE, &c->help,
		  0, NULL, NULL },
		{ "version", 'V', POPT_ARG_NONE, &c->version,
		  0, NULL, NULL },
		POPT_TABLEEND
	};
	uint64_t given = 0;
	int rc;

	/* c->con owns the strings that c->rq's paths will point to */
	c->con = poptGetContext(PROG, argc, argv, opts, 0);
	while ((rc = poptGetNextOpt(c->con)) > 0) {
		given |= OPT_BIT(rc);
		rc = take_string(c, rc);
		if (rc)
			return rc;
	}
	/* --label NAME sets up --mkfs; without it, --label IMAGE is a mode */
	if ((given & OPT_BIT(OPT_LABEL)) && !(given & OPT_BIT(OPT_MKFS))) {
		given |= OPT_BIT(OPT_LABEL_MODE);
		c->label = 1;
	} else if ((given & OPT_BIT(OPT_LABEL)) && !c->mk.label) {
		return cli_usage_error("%s", "--mkfs --label needs a NAME");
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
		rc = check_modes(opts, given);
	if (!rc)
		rc = parse_progress_fd(c);
	if (!rc)
		rc = parse_profile(c);
	if (!rc && c->place && strcmp(c->place, "start") &&
	    strcmp(c->place, "end"))
		rc = cli_usage_error("invalid --place '%s': give start or end",
				 c->place);
	return rc ? rc : parse_operands(c);
}
