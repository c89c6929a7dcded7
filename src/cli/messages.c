/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* messages.c - the command line's error messages and their exit codes. */
#include "messages.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_msg(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_try_help(void)
{
	fputs("Try '" PROG " --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

/* cli_fs_error() with the image's errno @errnum and window start @base. */
static int fs_error_at(const struct cli *c, enum fp_err err, int errnum,
		       uint64_t base)
{
	if (err == FP_E_IO)
		cli_msg("cannot read '%s': %s", c->image, strerror(errnum));
	else if (err == FP_E_NOTFAT && !c->has_offset && !c->partition)
		cli_msg("'%s': not a FAT filesystem: no FAT boot sector at its "
		    "start and no partition table; give the volume's offset "
		    "with -o", c->image);
	else if (err == FP_E_NOTFAT)
		cli_msg("'%s': not a FAT filesystem: no FAT boot sector at offset "
		    "%" PRIu64, c->image, base);
	else
		cli_msg("'%s': %s", c->image, fp_strerror(err));
	return EXIT_OPERATIONAL;
}

int cli_fs_error(const struct cli *c, struct fp_img *img, enum fp_err err)
{
	return fs_error_at(c, err, fp_img_errno(img), fp_img_base(img));
}

int cli_check_error(const struct cli *c, enum fp_err err,
		const struct fp_fs_diag *d)
{
	if (err == FP_E_FATDIFF)
		cli_msg("'%s': FAT copy %" PRIu32 " differs from the active one "
		    "at cluster %" PRIu32 " (%" PRIu32 " %s); run fsck.fat, "
		    "or use --force", c->image, d->copy + 1, d->first_cl,
		    d->diff_count, d->diff_count == 1 ? "entry differs" :
		    "entries differ");
	else if (err == FP_E_DIRTY)
		cli_msg("'%s': volume is marked dirty (not cleanly unmounted); "
		    "run fsck.fat, or use --force", c->image);
	else
		return EXIT_OPERATIONAL;
	return EXIT_INCONSISTENT;
}

int cli_exit_code(enum fp_err err)
{
	static const int code[] = {
		[FP_CLASS_OK] = EXIT_OK,
		[FP_CLASS_DAMAGED] = EXIT_INCONSISTENT,
		[FP_CLASS_OPERATIONAL] = EXIT_OPERATIONAL,
		[FP_CLASS_USAGE] = EXIT_USAGE,
	};

	return code[fp_err_class(err)];
}

/* @count clusters of @clus_len bytes, as "1203 clusters (4.7 MiB)". */
static const char *clusters(char *buf, size_t len, uint32_t count,
			    uint32_t clus_len)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)count * clus_len / 1024;
	int i = 0;

	while (v >= 1024 && i < 3) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%" PRIu32 " cluster%s (%.1f %s)", count,
		 count == 1 ? "" : "s", v, unit[i]);
	return buf;
}

/* The length of @path without trailing slashes, for "'::%.*s/NAME'". */
static int trimmed(const char *path)
{
	size_t n = strlen(path);

	while (n > 0 && path[n - 1] == '/')
		n--;
	return n > INT_MAX ? INT_MAX : (int)n;
}

void cli_no_room(const struct cli *c, enum fp_err err,
	     const struct fp_plan_diag *d, const struct fp_geom *g)
{
	const char *path = fp_reqs_path(c->rq, d->req);
	char need[64], avail[64];

	clusters(need, sizeof(need), d->need, g->clus_len);
	clusters(avail, sizeof(avail), d->avail, g->clus_len);
	if (err == FP_E_NOSPC)
		cli_msg("'%s': no space for '::%s': it needs %s, only %s free%s; "
		    "free some space or make the image larger", c->image,
		    path, need, avail, d->req ? " after the files before it"
		    : "");
	else if (d->last_cl)
		cli_msg("'%s': '::%s' cannot grow contiguously: it needs %s right "
		    "after its last cluster %" PRIu32 ", only %s free there; "
		    "try without --contiguous", c->image, path, need,
		    d->last_cl, avail);
	else
		cli_msg("'%s': no contiguous run of %s for '::%s': the largest "
		    "free run is %s; try without --contiguous", c->image, need,
		    path, avail);
}

/*
 * What to do about problem @p: fsck.fat, unless it reads those bytes as
 * sound (as it does entries after the end mark).
 */
static const char *repair_hint(enum fp_problem p)
{
	return fp_problem_fsck_repairs(p) ? "run fsck.fat" :
	       "see fatprealloc --verify (fsck.fat does not repair it)";
}

/* A path or file that the plan refuses to write through. */
void cli_damaged(const struct cli *c, const struct fp_plan_diag *d)
{
	const char *path = fp_reqs_path(c->rq, d->req);
	const char *code = fp_problem_code(d->problem);
	const char *hint = repair_hint(d->problem);

	if (c->map)
		cli_msg("'%s': '::%s' is damaged (%s); cannot map '::%s' through "
		    "it; %s", c->image, d->component, code, path, hint);
	else if (fp_reqs_edit(c->rq, d->req)->kind == FP_REQ_RM)
		cli_msg("'%s': '::%s' is damaged (%s); refusing to remove '::%s', "
		    "whose clusters could be another file's; nothing was "
		    "written; %s", c->image, d->component, code, path, hint);
	else if (!strcmp(d->component, path))
		cli_msg("'%s': '::%s' is damaged (%s); nothing was written; %s",
		    c->image, path, code, hint);
	else
		cli_msg("'%s': '::%s' is damaged (%s); refusing to write '::%s' "
		    "through it; nothing was written; %s", c->image,
		    d->component, code, path, hint);
}

/* @s with control bytes as '?', for a message (malloc'd; NULL: none). */
static char *printable(const char *s)
{
	char *p = strdup(s ? s : "");
	size_t i;

	for (i = 0; p && p[i]; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7F)
			p[i] = '?';
	return p;
}

/* FP_E_NOFILE, FP_E_NOENT or FP_E_NOTDIR at @at in the image's @path. */
static void not_found_msg(const struct cli *c, enum fp_err err,
			  const char *at, const char *path)
{
	if (err == FP_E_NOFILE)
		cli_msg("'%s': no file or directory '::%s'", c->image, at);
	else if (err == FP_E_NOENT)
		cli_msg("'%s': no directory '::%s' for '::%s'", c->image, at,
		    path);
	else
		cli_msg("'%s': '::%s' is not a directory, in '::%s'", c->image,
		    at, path);
}

int cli_list_error(const struct cli *c, struct fp_img *img, enum fp_err err,
		   const struct fp_list_diag *d)
{
	char *at = printable(d->path), *path = printable(c->list_path);

	if (!at || !path) {
		free(at);
		free(path);
		cli_msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	switch (err) {
	case FP_E_DAMAGED:
		cli_msg("'%s': '::%s' is damaged (%s); cannot list '::%s' "
		    "through it; %s", c->image, at, fp_problem_code(d->problem),
		    path, repair_hint(d->problem));
		break;
	case FP_E_NOFILE:
	case FP_E_NOENT:
	case FP_E_NOTDIR:
		not_found_msg(c, err, at, path);
		break;
	default:
		free(at);
		free(path);
		return cli_fs_error(c, img, err);
	}
	free(at);
	free(path);
	return cli_exit_code(err);
}

/*
 * The failures proper to rm and mkdir (request @d->req, of kind @kind);
 * 0 for one that cli_bad_path() words as for any request.
 */
static int edit_error(const struct cli *c, enum fp_err err,
		      const struct fp_plan_diag *d, enum fp_req_kind kind)
{
	const char *path = fp_reqs_path(c->rq, d->req);

	if (kind == FP_REQ_RM && err == FP_E_NOFILE)
		cli_msg("'%s': cannot remove '::%s': no such file or directory; "
		    "nothing was written", c->image, path);
	else if (kind == FP_REQ_RM && err == FP_E_NOTEMPTY)
		cli_msg("'%s': cannot remove '::%s': directory not empty (use "
		    "-r to remove its tree); nothing was written", c->image,
		    path);
	else if (kind == FP_REQ_RM && err == FP_E_ROOT)
		cli_msg("'%s': cannot remove '::%s': it is the root directory",
		    c->image, path);
	else if (kind == FP_REQ_RM && err == FP_E_NOTDIR)
		cli_msg("'%s': cannot remove '::%s': not a directory (it ends "
		    "in a slash); nothing was written", c->image, path);
	else if (kind == FP_REQ_RM && err == FP_E_DUPPATH)
		cli_msg("'%s': cannot remove '::%s': an earlier request of the "
		    "run changes it or a file in it; nothing was written",
		    c->image, path);
	else if (kind == FP_REQ_MKDIR && err == FP_E_EXISTS)
		cli_msg("'%s': cannot make directory '::%s': it exists%s; "
		    "nothing was written", c->image, path,
		    c->parents || !c->mkdir ? "" :
		    " (with -p an existing directory is fine)");
	else if (err == FP_E_NOENT)
		cli_msg("'%s': no directory '::%s' for '::%s'%s; nothing was "
		    "written", c->image, d->component, path,
		    kind == FP_REQ_MKDIR ? " (use -p to make it)" : "");
	else
		return 0;
	return 1;
}

/*
 * Why --mv (or a manifest's mv line) of request @d->req cannot be done;
 * 0 when the error is none of a move's own (cli_bad_path() says it).
 */
static int mv_error(const struct cli *c, enum fp_err err,
		    const struct fp_plan_diag *d)
{
	const char *from = fp_reqs_path(c->rq, d->req);
	const char *to = fp_reqs_edit(c->rq, d->req)->to;

	switch (err) {
	case FP_E_NOFILE:
		cli_msg("'%s': no file or directory '::%s' to move; nothing "
		    "was written", c->image, from);
		return 1;
	case FP_E_EXISTS:
		cli_msg("'%s': '::%s' exists; a move replaces a file only with "
		    "--replace; nothing was written", c->image, to);
		return 1;
	case FP_E_ISDIR:
		cli_msg("'%s': a directory is in the way of '::%s' at '::%s'; "
		    "nothing was written", c->image, from, to);
		return 1;
	case FP_E_NOTDIR:
		cli_msg("'%s': cannot move '::%s' to '::%s': a directory and a "
		    "file do not replace each other; nothing was written",
		    c->image, from, to);
		return 1;
	case FP_E_MVSELF:
		cli_msg("'%s': cannot move '::%s' into itself ('::%s')",
		    c->image, from, to);
		return 1;
	case FP_E_MVROOT:
		cli_msg("'%s': the root directory cannot be moved", c->image);
		return 1;
	default:
		return 0;
	}
}

void cli_bad_path(const struct cli *c, enum fp_err err,
	      const struct fp_plan_diag *d, const struct fp_geom *g)
{
	const char *path = fp_reqs_path(c->rq, d->req);
	enum fp_req_kind kind = fp_reqs_edit(c->rq, d->req)->kind;

	if (kind != FP_REQ_FILE && edit_error(c, err, d, kind))
		return;
	if (fp_reqs_edit(c->rq, d->req)->kind == FP_REQ_MV &&
	    mv_error(c, err, d))
		return;

	switch (err) {
	case FP_E_NOENT:
		cli_msg("'%s': no directory '::%s' for '::%s'%s", c->image,
		    d->component, path, c->map ? "" :
		    " (use -p to create it)");
		break;
	case FP_E_NOTDIR:
		cli_msg("'%s': '::%s' is not a directory, in '::%s'", c->image,
		    d->component, path);
		break;
	case FP_E_DAMAGED:
		cli_damaged(c, d);
		break;
	case FP_E_EXISTS:
		cli_msg("'%s': '::%s' exists; a copy replaces a file only with "
		    "--replace; nothing was written", c->image, path);
		break;
	case FP_E_ISDIR:
		if (fp_reqs_src(c->rq, d->req)->host) {
			cli_msg("'%s': '::%s' exists as a directory; give "
			    "'::%.*s/' to copy '%s' into it", c->image, path,
			    trimmed(path), path, fp_reqs_src(c->rq, d->req)->host);
			break;
		}
		cli_msg("'%s': '::%s' exists as a directory; name a file, such as "
		    "'::%.*s/NAME'", c->image, path, trimmed(path), path);
		break;
	case FP_E_ROOTFULL:
		if (fp_reqs_edit(c->rq, d->req)->kind == FP_REQ_LABEL) {
			cli_msg("'%s': no room for the label entry in the root "
			    "directory, which holds %" PRIu32 " entries and "
			    "cannot grow (FAT12/16); nothing was written",
			    c->image, g->root_entries);
			break;
		}
		cli_msg("'%s': no room for '::%s' in the root directory, which "
		    "holds %" PRIu32 " entries and cannot grow (FAT12/16); put "
		    "the file in a subdirectory", c->image, path,
		    g->root_entries);
		break;
	case FP_E_NAME:
		if (!trimmed(path))
			cli_msg("'%s': '::%s' names no file", c->image, path);
		else
			cli_msg("'%s': invalid file name in '::%s': names must be "
			    "UTF-8 without control characters or any of "
			    "\" * : < > ? \\ |, and not end in a dot or a "
			    "space", c->image, path);
		break;
	case FP_E_NONBMP:
		cli_msg("'%s': invalid file name in '::%s': characters above "
		    "U+FFFF (outside the Basic Multilingual Plane, such as "
		    "emoji) are refused", c->image, path);
		break;
	case FP_E_RESERVED:
		cli_msg("'%s': '%s' in '::%s' is a device name that Windows "
		    "reserves (CON, PRN, AUX, NUL, CONIN$, CONOUT$, COM1-9, "
		    "LPT1-9, COM or LPT with a superscript 1-3; with any "
		    "extension); Windows cannot open it",
		    c->image, d->component, path);
		break;
	default:
		cli_msg("'%s': '::%s': %s", c->image, path, fp_strerror(err));
		break;
	}
}

int cli_plan_error(const struct cli *c, struct fp_img *img,
	       enum fp_err err, const struct fp_plan_diag *d,
	       const struct fp_geom *g)
{
	if (err == FP_E_IO)
		return cli_fs_error(c, img, err);
	if (err == FP_E_NOSPC || err == FP_E_NORUN)
		cli_no_room(c, err, d, g);
	else
		cli_bad_path(c, err, d, g);
	if (cli_exit_code(err) == EXIT_USAGE)
		return cli_try_help();
	return cli_exit_code(err);
}

/*
 * FP_E_AMBIG: both readings of sector 0, the volume at sector 0 and the
 * table (its FAT partitions), and the options that choose one.
 */
static int sector0_error(const struct cli *c, const struct fp_locate *loc)
{
	size_t i;

	fprintf(stderr, PROG ": '%s': sector 0 is both a FAT boot sector "
		"(volume at sectors 0-%" PRIu64 ") and %s partition table (",
		c->image, loc->vol_len / 512 - 1,
		loc->kind == FP_PT_GPT ? "a GPT" : "an MBR");
	if (loc->table_bad)
		fputs("invalid", stderr);
	else if (loc->fat_count == 0)
		fputs("no FAT partition", stderr);
	else
		fprintf(stderr, "FAT in partition%s",
			loc->fat_count > 1 ? "s" : "");
	for (i = 0; i < loc->fat_count && i < FP_LOCATE_MAX; i++)
		fprintf(stderr, " %u", loc->fat_parts[i]);
	fputs("): give -P N to use partition N, or -o 0 to use the volume "
	      "at sector 0\n", stderr);
	return EXIT_OPERATIONAL;
}

/* Say why the volume was not found in the image; returns the exit code. */
static int cli_locate_error(const struct cli *c, enum fp_err err, int errnum,
			const struct fp_locate *loc)
{
	size_t i;

	if (err == FP_E_IO)
		return fs_error_at(c, err, errnum, 0);
	if (err == FP_E_AMBIG)
		return sector0_error(c, loc);
	if (err == FP_E_MANYPART) {
		fprintf(stderr, PROG ": '%s': several FAT partitions:",
			c->image);
		for (i = 0; i < loc->fat_count && i < FP_LOCATE_MAX; i++)
			fprintf(stderr, " %u", loc->fat_parts[i]);
		fputs("; choose one with -P N (--partition N)\n", stderr);
		return EXIT_USAGE;
	}
	if (err == FP_E_NOPART && loc->kind == FP_PT_NONE)
		cli_msg("'%s': no partition %u: the image has no partition table "
		    "(MBR or GPT)", c->image, c->partition);
	else if (err == FP_E_NOPART)
		cli_msg("'%s': no partition %u in its %s partition table (list "
		    "them with sfdisk -l)", c->image, c->partition,
		    loc->kind == FP_PT_GPT ? "GPT" : "MBR");
	else if (err == FP_E_PASTPART)
		cli_msg("'%s': the FAT volume in partition %u has %" PRIu64 " "
		    "sectors, more than the partition's %" PRIu64 " (of %"
		    PRIu32 " bytes): it runs past the partition's end",
		    c->image, loc->part,
		    (loc->vol_len + loc->sec_len - 1) / loc->sec_len,
		    loc->len / loc->sec_len, loc->sec_len);
	else if (err == FP_E_NOTFAT && c->partition)
		cli_msg("'%s': partition %u is not a FAT filesystem", c->image,
		    c->partition);
	else if (err == FP_E_NOTFAT)
		cli_msg("'%s': none of its partitions is a FAT filesystem",
		    c->image);
	else
		cli_msg("'%s': %s", c->image, fp_strerror(err));
	return EXIT_OPERATIONAL;
}

static int lock_error(const struct cli *c, enum fp_err err,
		      const struct fp_vol_diag *d)
{
	if (err == FP_E_LOCKED && *d->disk)
		cli_msg("'%s': its disk /dev/%s is locked by another process "
		    "(udev, or a partitioning tool; use --wait to wait for it)",
		    c->image, d->disk);
	else if (err == FP_E_LOCKED)
		cli_msg("'%s': image is locked by another process (use --wait "
		    "to wait for it)", c->image);
	else if (*d->disk)
		cli_msg("cannot lock '/dev/%s', the disk of '%s': %s", d->disk,
		    c->image, strerror(d->errnum));
	else
		cli_msg("cannot lock '%s': %s", c->image, strerror(d->errnum));
	return EXIT_OPERATIONAL;
}

/* The write into an overlapping partition refused. */
static int overlap_error(const struct cli *c, const struct fp_locate *loc)
{
	char other[64];

	fp_vol_overlap_name(&loc->overlap, other, sizeof(other));
	cli_msg("'%s': partition %u overlaps %s from sector %" PRIu64 " (%s), "
	    "which a write into it may change; fix the partition table; "
	    "nothing written", c->image, loc->part, other,
	    loc->overlap.off / 512, fp_problem_code(FP_P_PART_OVERLAP));
	return EXIT_INCONSISTENT;
}

int cli_vol_error(const struct cli *c, enum fp_err err,
	      const struct fp_vol_diag *d)
{
	int e = d->errnum;

	switch (d->step) {
	case FP_VOL_STEP_OPEN:
		cli_msg("cannot open '%s': %s%s", c->image,
		    e == ENOTBLK || e == EISDIR ?
		    "not a regular file or block device" : e ?
		    strerror(e) : fp_strerror(err),
		    e == EBUSY ? " (is it mounted?)" : "");
		return EXIT_OPERATIONAL;
	case FP_VOL_STEP_LOCK:
		return lock_error(c, err, d);
	case FP_VOL_STEP_LOOP:
		cli_msg("'%s' is attached to /dev/%s and may be mounted; detach it "
		    "(losetup -d /dev/%s) or use --force", c->image, d->loop,
		    d->loop);
		return EXIT_OPERATIONAL;
	case FP_VOL_STEP_LOCATE:
		return cli_locate_error(c, err, e, &d->loc);
	case FP_VOL_STEP_OVERLAP:
		return overlap_error(c, &d->loc);
	case FP_VOL_STEP_WINDOW:
		cli_msg("'%s': offset %" PRIu64 " is beyond the end of the image",
		    c->image, d->loc.off);
		return EXIT_OPERATIONAL;
	default:
		return fs_error_at(c, err, e, d->base);
	}
}

void cli_vol_notes(const struct cli *c, const struct fp_locate *loc)
{
	char other[64];

	if (loc->overlap.found && (c->map || c->list) && !c->quiet) {
		fp_vol_overlap_name(&loc->overlap, other, sizeof(other));
		cli_msg("warning: '%s': partition %u overlaps %s from sector %"
		    PRIu64, c->image, loc->part, other,
		    loc->overlap.off / 512);
	}
	if (loc->gpt_backup && !c->quiet && !c->verify)	/* a finding there */
		cli_msg("warning: '%s': primary GPT is damaged, using the backup",
		    c->image);
	if (loc->part && c->verbose)
		cli_msg("'%s': using partition %u at offset %" PRIu64, c->image,
		    loc->part, loc->off);
}

int cli_usage_error(const char *fmt, const char *arg)
{
	fputs(PROG ": ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return cli_try_help();
}

/* The message of a refusal or failure of --extract at @at, @host. */
static void extract_msg(const struct cli *c, enum fp_err err,
			const struct fp_extract_diag *d, const char *at,
			const char *host)
{
	switch (err) {
	case FP_E_DAMAGED:
		cli_msg("'%s': '::%s' is damaged (%s); nothing was extracted; "
		    "%s", c->image, at, fp_problem_code(d->problem),
		    repair_hint(d->problem));
		break;
	case FP_E_NOTDIR:
		if (*host) {
			cli_msg("'%s' is not a directory; cannot extract "
			    "'::%s' into it", host, c->ex_path);
			break;
		}
		/* fall through */
	case FP_E_NOFILE:
	case FP_E_NOENT:
		not_found_msg(c, err, at, c->ex_path);
		break;
	case FP_E_HOSTNAME:
		cli_msg("'%s': '::%s' has a name that is not extracted (a "
		    "control character, or over 255 bytes); nothing was "
		    "extracted", c->image, at);
		break;
	case FP_E_EXISTS:
		cli_msg("'%s' exists; not replaced%s", host, c->replace ?
		    " (not a regular file, or a directory where a file goes)" :
		    " (use --replace)");
		break;
	case FP_E_HOST:
		cli_msg("cannot write '%s': %s", host, strerror(d->errnum));
		break;
	default:
		break;
	}
}

int cli_extract_error(const struct cli *c, struct fp_img *img,
		      enum fp_err err, const struct fp_extract_diag *d)
{
	char *at = printable(d->path), *host = printable(d->host);
	int ret = cli_exit_code(err);

	if (!at || !host) {
		cli_msg("out of memory");
		ret = EXIT_OPERATIONAL;
	} else if (err == FP_E_IO || err == FP_E_NOMEM ||
		   err == FP_E_CORRUPT) {
		ret = cli_fs_error(c, img, err);
	} else {
		extract_msg(c, err, d, at, host);
	}
	free(at);
	free(host);
	return ret;
}

int cli_diff_error(const struct cli *c, struct fp_img *img, enum fp_err err,
		   const struct fp_list_diag *d)
{
	char *at = printable(d->path);

	if (err == FP_E_DAMAGED && at)
		cli_msg("'%s': '::%s' is damaged (%s); cannot compare through "
		    "it; %s", c->image, at, fp_problem_code(d->problem),
		    repair_hint(d->problem));
	else
		cli_fs_error(c, img, err);
	free(at);
	return cli_exit_code(err);
}

int cli_mirror_error(const struct cli *c, struct fp_img *img,
		     enum fp_err err, const struct fp_mirror_diag *d)
{
	char *at, *dest;
	int ret = cli_exit_code(err);

	if (d->tree.path[0] && err == FP_E_INVAL)
		return cli_usage_error("'%s' is not a directory; --mirror makes "
				   "a directory equal to one", d->tree.path);
	if (d->tree.path[0])
		return cli_tree_error(&d->tree, err);
	if (!d->list.path || (err != FP_E_DAMAGED && err != FP_E_NOTDIR))
		return cli_fs_error(c, img, err);
	at = printable(d->list.path);
	dest = printable(c->mirror_dest);
	if (!at || !dest) {
		cli_msg("out of memory");
		ret = EXIT_OPERATIONAL;
	} else if (err == FP_E_DAMAGED) {
		cli_msg("'%s': '::%s' is damaged (%s); cannot mirror into "
		    "'::%s' through it; %s", c->image, at,
		    fp_problem_code(d->list.problem), dest,
		    repair_hint(d->list.problem));
	} else {
		cli_msg("'%s': '::%s' is not a directory; --mirror makes a "
		    "directory equal to '%s'", c->image, at, c->mirror_src);
	}
	free(at);
	free(dest);
	return ret;
}
