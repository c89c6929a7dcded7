/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* main.c - the fatprealloc command line: its run modes and main(). */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <popt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dir.h"
#include "diff.h"
#include "extract.h"
#include "edit_label.h"
#include "image.h"
#include "list.h"
#include "map.h"
#include "mirror.h"
#include "messages.h"
#include "name.h"
#include "plan.h"
#include "report.h"
#include "vol.h"

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
	const char *src = fp_reqs_src(c->rq, d->req)->host;

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

	for (i = 0; i < fp_reqs_count(c->rq); i++) {
		const struct fp_req_src *s = fp_reqs_src(c->rq, i);

		if (s->host && !s->is_dir)
			return 1;
	}
	return 0;
}

/* Plan and commit; @walk: the volume's walk made before (taken), or NULL. */
static int plan_walked(const struct cli *c, struct fp_img *img,
		       struct fp_fs *fs, struct fp_damage *walk)
{
	struct fp_plan_opts po;
	struct fp_fs_diag fsd = { 0 };
	struct fp_plan_diag diag;
	struct fp_plan *plan;
	struct cli_progress prog;
	enum fp_err err;
	int ret = EXIT_OK;

	cli_plan_opts(c, &po);
	po.walk = walk;
	po.progress = progress_on(c, &prog,
				  has_copies(c) ? "writing" : "zeroing");
	err = fp_plan_build(fs, &po, fp_reqs_array(c->rq),
			    fp_reqs_count(c->rq), &plan, &diag);
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

/* Plan and commit on a volume no walk was made of (cli_fill_fn too). */
static int run_plan(const struct cli *c, struct fp_img *img,
		    struct fp_fs *fs)
{
	return plan_walked(c, img, fs, NULL);
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
			 (c->verify || c->map || c->list || c->extract ||
			  c->diff || c->label_print ? FP_VOL_NOWRITE : 0) |
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
	enum fp_err err, verdict;
	int ret;

	ret = open_vol(c, 0, 0, &vol);
	if (ret)
		return ret;
	err = fp_vol_verify_profile(vol, progress_on(c, &prog, "checking"),
				    c->profile, &r);
	cli_meter_end(&prog.meter);
	if (err) {
		ret = cli_fs_error(c, fp_vol_img(vol), err);
	} else {
		verdict = fp_report_verdict(r, c->strict);
		if (c->json)
			cli_report_verify_json(stdout, c->image,
					       c->profile_arg, r);
		else if (!c->quiet || verdict)
			cli_report_verify_text(stdout, r);
		ret = cli_exit_code(verdict);
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

	err = fp_map_load(fs, fp_reqs_path(c->rq, i), &m, &diag);
	if (err) {
		diag.req = i;
		return cli_plan_error(c, img, err, &diag, fp_fs_geom(fs));
	}
	if (c->json) {
		fputs(*shown ? "," : "", stdout);
		cli_report_map_json(stdout, fp_reqs_path(c->rq, i), &m,
				   fp_fs_geom(fs), fp_img_base(img));
	} else {
		cli_report_map_text(stdout, fp_reqs_path(c->rq, i), &m,
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
	for (i = 0; i < fp_reqs_count(c->rq); i++) {
		rc = map_one(c, img, fs, i, &shown);
		if (rc && !ret)
			ret = rc;
	}
	if (c->json)
		puts("]}");
	fp_vol_close(vol, NULL);
	return ret;
}

/*
 * Print what fp_list_next() gives, with the SHA-256 of each file when
 * --hash; 0 or an exit code.
 */
static int list_print(const struct cli *c, struct fp_img *img,
		      struct fp_list *l, const struct cli_list_vol *v,
		      struct fp_list_diag *diag)
{
	enum fp_sha256_impl impl = fp_sha256_best();
	const struct fp_list_entry *e;
	uint8_t d[FP_SHA256_LEN];
	char hex[FP_SHA256_HEX];
	const char *hash;
	enum fp_err err;
	size_t n = 0;

	while ((err = fp_list_next(l, &e, diag)) == FP_OK && e) {
		hash = NULL;
		if (c->hash && !(e->attr & FP_ATTR_DIR)) {
			err = fp_list_hash(l, e, impl, d);
			if (err)
				break;
			fp_sha256_hex(d, hex);
			hash = hex;
		}
		if (c->json)
			cli_report_list_entry_json(stdout, e, v, hash, !n);
		else
			cli_report_list_entry_text(stdout, e, hash, c->hash);
		n++;
	}
	if (c->json)	/* an I/O error midway: a document all the same */
		cli_report_list_end_json(stdout);
	return err ? cli_list_error(c, img, err, diag) : EXIT_OK;
}

/*
 * --list: a pass that only checks, so that damage under ::PATH prints
 * nothing but the message, then the pass that prints.
 */
static int run_list(const struct cli *c)
{
	struct fp_list_diag diag = { NULL, FP_P_COUNT };
	const struct fp_list_entry *e;
	struct fp_list *l = NULL;
	struct cli_list_vol v;
	struct fp_vol *vol;
	struct fp_img *img;
	enum fp_err err;
	int ret;

	ret = open_vol(c, 0, 1, &vol);
	if (ret)
		return ret;
	img = fp_vol_img(vol);
	memset(&v, 0, sizeof(v));
	v.g = fp_fs_geom(fp_vol_fs(vol));
	v.base = fp_img_base(img);
	v.path = c->list_path;
	v.hash = c->hash;
	err = fp_list_open(fp_vol_fs(vol), c->list_path, FP_LIST_NO_RUNS, &l,
			   &diag);
	while (!err && (err = fp_list_next(l, &e, &diag)) == FP_OK && e)
		;
	if (!err)
		err = fp_list_rewind(l, 0, &diag);
	if (!err)
		err = fp_list_space(fp_vol_fs(vol), &v.free_count,
				    &v.run_start, &v.run_count);
	if (err) {
		ret = cli_list_error(c, img, err, &diag);
	} else {
		v.has_label = fp_list_label(l, v.label);
		if (c->json)
			cli_report_list_head_json(stdout, c->image, &v);
		else
			cli_report_list_head_text(stdout, &v);
		ret = list_print(c, img, l, &v, &diag);
	}
	fp_list_free(l);
	fp_list_diag_release(&diag);
	fp_vol_close(vol, NULL);
	return ret;
}

/*
 * --extract: stored times read as UTC when SOURCE_DATE_EPOCH is set, as
 * the copy-in writes them, else as local time.
 */
static int run_extract(const struct cli *c)
{
	struct fp_extract_opts o = { c->replace,
				     getenv("SOURCE_DATE_EPOCH") != NULL };
	struct fp_extract_diag d;
	struct fp_vol *vol;
	enum fp_err err;
	int ret;

	ret = open_vol(c, 0, 1, &vol);
	if (ret)
		return ret;
	err = fp_extract(fp_vol_fs(vol), c->ex_path, c->ex_dest, &o, &d);
	if (err)
		ret = cli_extract_error(c, fp_vol_img(vol), err, &d);
	fp_extract_diag_release(&d);
	fp_vol_close(vol, NULL);
	return ret;
}

/* --diff's output as it is found, kept in @tmp until the summary. */
struct diff_print {
	const struct cli *c;
	FILE *tmp;
	size_t fields, entries;	/* printed: a JSON comma after the first */
};

/* @s with control bytes as '?', for a text line. */
static void put_text(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7F ? '?' : *s, out);
}

static void diff_field(void *ctx, const char *name, const char *a,
		       const char *b, int text)
{
	struct diff_print *p = ctx;
	const char *q = text ? "\"" : "";

	if (!p->c->json) {	/* a text's trailing spaces seen */
		fprintf(p->tmp, "volume %s: %s%s%s -> %s%s%s\n", name, q, a, q,
			q, b, q);
		return;
	}
	fprintf(p->tmp, "%s{\"field\":\"%s\",\"image1\":", p->fields++ ?
		"," : "", name);
	cli_report_json_string(p->tmp, a);
	fputs(",\"image2\":", p->tmp);
	cli_report_json_string(p->tmp, b);
	fputc('}', p->tmp);
}

static void diff_entry(void *ctx, const char *path, unsigned aspects)
{
	struct diff_print *p = ctx;
	const char *sep = "";
	int i;

	if (p->c->json) {	/* entries come after the fields */
		fprintf(p->tmp, "%s%s{\"path\":", p->entries++ ? "," :
			"],\"entries\":[", "");
		cli_report_json_string(p->tmp, path);
		fputs(",\"changes\":[", p->tmp);
	} else {
		fputs(aspects & (1u << FP_DIFF_ADDED) ? "added " :
		      aspects & (1u << FP_DIFF_REMOVED) ? "removed " :
		      "changed ", p->tmp);
		put_text(p->tmp, path);
		sep = ": ";
	}
	/* text: added and removed are the line's first word already */
	for (i = p->c->json ? 0 : FP_DIFF_TYPE; i < FP_DIFF_ASPECT_COUNT; i++) {
		if (!(aspects & (1u << i)))
			continue;
		fprintf(p->tmp, p->c->json ? "%s\"%s\"" : "%s%s", sep,
			fp_diff_aspect_name(i));
		sep = p->c->json ? "," : ", ";
	}
	fputs(p->c->json ? "]}" : "\n", p->tmp);
}

/* The summary, then what was found, then the regions of bytes. */
static void diff_show(const struct cli *c, struct diff_print *p,
		      const struct fp_diff_result *r)
{
	char sum[1024];
	int ch, i, n = 0;

	fp_diff_summary(r, sum, sizeof(sum));
	if (c->json) {
		fputs("{\"image1\":", stdout);
		cli_report_json_string(stdout, c->image);
		fputs(",\"image2\":", stdout);
		cli_report_json_string(stdout, c->image2);
		printf(",\"identical\":%s,\"summary\":",
		       r->identical ? "true" : "false");
		cli_report_json_string(stdout, sum);
		fputs(",\"volume\":[", stdout);
	} else {
		printf("summary: %s\n", sum);
	}
	rewind(p->tmp);
	while ((ch = getc(p->tmp)) != EOF)
		putchar(ch);
	if (c->json)
		fputs(p->entries ? "],\"bytes\":[" :
		      "],\"entries\":[],\"bytes\":[", stdout);
	for (i = 0; i < FP_DIFF_REGION_COUNT; i++)
		if (r->regions & (1u << i))
			printf(c->json ? "%s\"%s\"" : "%sbytes differ in %s",
			       n++ ? (c->json ? "," : "\n") : "",
			       fp_diff_region_name(i));
	fputs(c->json ? "]}\n" : n ? "\n" : "", stdout);
}

/*
 * --diff: exit status as diff(1): 0 byte-identical volumes, 1 they
 * differ, 2 trouble (a volume that cannot be opened, read or walked).
 */
static int run_diff(const struct cli *c)
{
	struct diff_print p = { c, NULL, 0, 0 };
	struct fp_diff_out out = { diff_field, diff_entry, &p };
	struct fp_list_diag diag = { NULL, FP_P_COUNT };
	struct fp_vol *vol[2] = { NULL, NULL };
	struct fp_diff_result r;
	struct cli c2 = *c;
	enum fp_err err;
	int ret, which = 0;

	c2.image = c->image2;
	c2.offset = c->offset2;
	c2.has_offset = c->has_offset2;
	ret = open_vol(c, 0, 1, &vol[0]);
	if (!ret)
		ret = open_vol(&c2, 0, 1, &vol[1]);
	if (!ret && !(p.tmp = tmpfile())) {
		cli_msg("cannot make a temporary file: %s", strerror(errno));
		ret = EXIT_OPERATIONAL;
	}
	if (!ret) {
		err = fp_diff(fp_vol_fs(vol[0]), fp_vol_fs(vol[1]),
			      c->placement, &out, &r, &diag, &which);
		if (err)
			ret = cli_diff_error(which ? &c2 : c,
					     fp_vol_img(vol[which]), err,
					     &diag);
		else
			diff_show(c, &p, &r);
		fp_diff_result_release(&r);
	}
	if (p.tmp)
		fclose(p.tmp);
	fp_list_diag_release(&diag);
	fp_vol_close(vol[0], NULL);
	if (vol[1])
		fp_vol_close(vol[1], NULL);
	return ret ? 2 : r.identical ? 0 : 1;
}

/* --label IMAGE: the label as blkid and mlabel -s show it, one line. */
static int run_label_print(const struct cli *c)
{
	char text[3 * 11 + 1];
	uint16_t u[11];
	uint8_t lab[11];
	struct fp_vol *vol;
	enum fp_err err;
	int ret, found;

	ret = open_vol(c, 0, 1, &vol);
	if (ret)
		return ret;
	err = fp_edit_label_read(fp_vol_fs(vol), lab, &found);
	if (err) {
		ret = err == FP_E_IO ? cli_fs_error(c, fp_vol_img(vol), err) :
		      cli_exit_code(err);
		if (err != FP_E_IO)
			cli_msg("'%s': cannot read the root directory: %s",
			    c->image, fp_strerror(err));
	} else {
		fp_name_to_utf8(u, found ? fp_name_label_decode(lab, u) : 0,
				text, sizeof(text));
		puts(text);
	}
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

/*
 * --mirror: the requests that make DEST_DIR equal SRC_DIR, from the open
 * volume.  None at all is a plan that writes nothing.
 */
static int add_mirror(const struct cli *c, struct fp_img *img,
		      struct fp_fs *fs, struct fp_damage **walk)
{
	struct fp_mirror_diag d;
	struct fp_mirror_stats st;
	enum fp_err err;
	int ret;

	memset(&d, 0, sizeof(d));
	err = fp_mirror_add(c->rq, fs, c->mirror_src, c->mirror_dest,
			    c->clamp ? &c->time : NULL, c->utc, &st, walk, &d);
	ret = err ? cli_mirror_error(c, img, err, &d) :
	      cli_check_duplicates(c);
	fp_list_diag_release(&d.list);
	if (!ret && c->verbose && !c->json)	/* JSON: one document */
		printf("%s: ::%s: %zu file%s already equal (%zu compared by "
		       "content)%s\n", c->image, c->mirror_dest, st.same,
		       st.same == 1 ? "" : "s", st.compared,
		       fp_reqs_count(c->rq) ? "" : "; nothing to change");
	return ret;
}

static int run(const struct cli *c)
{
	struct fp_fs_diag diag = { 0 };
	struct fp_vol *vol;
	struct fp_img *img;
	enum fp_err err;
	struct fp_damage *walk = NULL;
	int ret;

	ret = open_vol(c, !c->dry_run, 1, &vol);
	if (ret)
		return ret;
	img = fp_vol_img(vol);
	err = fp_vol_check(vol, &diag);
	ret = check_fs(c, img, err, &diag);
	if (!ret && c->mirror)
		ret = add_mirror(c, img, fp_vol_fs(vol), &walk);
	if (!ret)
		ret = plan_walked(c, img, fp_vol_fs(vol), walk);	/* takes it */
	else
		fp_damage_free(walk);
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
	c.rq = fp_reqs_new();
	if (c.rq) {
		ret = cli_parse_args(&c, argc, argv);
	} else {
		cli_msg("out of memory");
		ret = EXIT_OPERATIONAL;
	}
	if (!ret && c.help)
		cli_print_help();
	else if (!ret && c.version)
		cli_print_version();
	else if (!ret && c.mkfs)
		ret = cli_run_mkfs(&c, run_plan);
	else if (!ret && c.verify)
		ret = run_verify(&c);
	else if (!ret && c.map)
		ret = run_map(&c);
	else if (!ret && c.list)
		ret = run_list(&c);
	else if (!ret && c.extract)
		ret = run_extract(&c);
	else if (!ret && c.diff)
		ret = run_diff(&c);
	else if (!ret && c.fill_holes)
		ret = run_fill(&c);
	else if (!ret && c.label_print)
		ret = run_label_print(&c);
	else if (!ret)
		ret = run(&c);
	fp_reqs_free(c.rq);
	for (i = 0; i < c.manifest_count; i++) {
		free(c.manifests[i].name);
		free(c.manifests[i].buf);
	}
	free(c.manifests);
	free(c.image);
	free(c.image2);
	free(c.timestamp);
	free(c.offset_arg);
	free(c.partition_arg);
	free(c.progress_fd_arg);
	free(c.place);
	free(c.profile_arg);
	cli_mkfs_args_free(&c.mk);
	free(c.attr_spec);
	poptFreeContext(c.con);
	return close_stdout(ret);
}
