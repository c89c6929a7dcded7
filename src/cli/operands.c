/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* operands.c - the requests the command line and --manifest name. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "cli.h"
#include "edit_attr.h"
#include "edit_label.h"
#include "messages.h"
#include "reqs.h"
#include "size.h"
#include "tree.h"

void cli_plan_opts(const struct cli *c, struct fp_plan_opts *po)
{
	memset(po, 0, sizeof(*po));
	po->keep_size = c->keep_size;
	po->zero = c->zero;
	po->punch_holes = c->punch_holes;
	po->contiguous = c->contiguous;
	po->parents = c->parents;
	po->trim = c->trim;
	po->place_end = c->place && !strcmp(c->place, "end");
	po->time = c->time;
	po->utc = c->utc;
	po->srcs = fp_reqs_srcs(c->rq);
	po->edits = fp_reqs_edits(c->rq);
}

/* Append the request @path (after its ::) of @size. */
int cli_add_req(struct cli *c, const char *path, uint64_t size)
{
	if (fp_reqs_add(c->rq, path, size)) {
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	return EXIT_OK;
}

int cli_add_edit(struct cli *c, const char *path,
		 const struct fp_req_edit *ed)
{
	if (fp_reqs_add_edit(c->rq, path, ed)) {
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	return EXIT_OK;
}

int cli_add_mv(struct cli *c, const char *from, const char *to)
{
	struct fp_req_edit e = { FP_REQ_MV, c->replace ? FP_EDIT_REPLACE : 0,
				 NULL, 0, 0 };
	const char *bad = strncmp(from, "::", 2) ? from :
			  strncmp(to, "::", 2) ? to : NULL;

	if (bad)
		return cli_usage_error("path '%s' does not start with ::", bad);
	if (strspn(from + 2, "/") == strlen(from + 2))
		return cli_usage_error("%s", "the root directory cannot be "
				   "moved");
	e.to = to + 2;
	if (fp_reqs_add_edit(c->rq, from + 2, &e)) {
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	return EXIT_OK;
}

/*
 * 1 if volume path @path ends in a slash.  On the command line such a
 * path names a directory, as mtools 4.0.43 reads a target, although the
 * library skips trailing slashes: never a file to preallocate or trim,
 * only a directory to map, or to copy a file into.
 */
int cli_ends_in_slash(const char *path)
{
	size_t n = strlen(path);

	return n && path[n - 1] == '/';
}

int cli_tree_error(const struct fp_tree_diag *d, enum fp_err err)
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
int cli_add_copy(struct cli *c, const char *src, const char *dest)
{
	struct fp_tree_diag d;
	uint64_t size;
	enum fp_err err;

	if (strncmp(dest, "::", 2))
		return cli_usage_error("destination '%s' does not start with ::",
				   dest);
	err = fp_reqs_add_copy(c->rq, src, dest + 2,
			       c->clamp ? &c->time : NULL, &d);
	if (err == FP_E_SRC && d.errnum == ENOENT && !d.link &&
	    !fp_size_parse(src, &size))
		return cli_usage_error("no source file '%s'; to preallocate, "
				   "give ::PATH SIZE, the path first", src);
	if (err == FP_E_NOMEM && !*d.path) {
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	return err ? cli_tree_error(&d, err) : EXIT_OK;
}

int cli_add_attr(struct cli *c, const char *spec, const char *path)
{
	struct fp_req_edit ed = { FP_REQ_ATTR, 0, NULL, 0, 0 };

	if (fp_edit_attr_parse(spec, &ed.attr_set, &ed.attr_clear))
		return -1;
	if (fp_reqs_add_edit(c->rq, path + 2, &ed)) {
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	return EXIT_OK;
}

void cli_attr_spec_error(const char *spec)
{
	cli_msg("invalid attribute SPEC '%s': " CLI_ATTR_SPEC_HINT, spec);
}

int cli_add_label(struct cli *c, const char *name, int *twice)
{
	struct fp_req_edit ed = { FP_REQ_LABEL, 0, name, 0, 0 };
	uint8_t lab[11];
	int remove;

	*twice = c->label_count > 0;
	if (*twice || fp_edit_label_check(name, lab, &remove))
		return -1;
	if (fp_reqs_add_edit(c->rq, "/", &ed)) {
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	c->label_count++;
	return EXIT_OK;
}
