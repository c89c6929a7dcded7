/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* mkfs.c - --mkfs: its options, the target, formatting and filling. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "cli.h"
#include "messages.h"
#include "mkfs.h"
#include "size.h"
#include "vol.h"

#define AUTO_TRIES 64

/* What --mkfs's options ask for, parsed. */
struct mk {
	struct fp_mkfs_opts o;
	struct fp_mkfs_meta m;
	int has_size, size_auto;
	uint64_t size;
	uint64_t free_len;	/* --free SIZE */
	unsigned free_pct;	/* --free N% */
	int has_volume_id;
	uint8_t *code;		/* --boot-code's bytes, owned */
	size_t code_len;
	struct fp_profile_geom where;	/* the partition, for --profile */
};

void cli_mkfs_args_free(struct cli_mkfs_args *a)
{
	char **f[] = { &a->size, &a->free, &a->fat, &a->cluster, &a->sector,
		       &a->fats, &a->reserved, &a->hidden, &a->root,
		       &a->media, &a->align, &a->label, &a->volume_id,
		       &a->boot_code };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(f); i++) {
		free(*f[i]);
		*f[i] = NULL;
	}
}

static int bad_value(const char *opt, const char *arg, const char *want)
{
	cli_msg("invalid --%s '%s': %s", opt, arg, want);
	return cli_try_help();
}

/* A whole number from @min to @max in @base (0: C's prefixes). */
static int parse_num(const char *opt, const char *s, int base, uint64_t min,
		     uint64_t max, const char *want, uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9')
		return bad_value(opt, s, want);
	v = strtoull(s, &end, base);
	if (errno || *end || v < min || v > max)
		return bad_value(opt, s, want);
	*out = v;
	return EXIT_OK;
}

/* A byte count (SIZE syntax) that is a power of 2 from @min to @max. */
static int parse_pow2(const char *opt, const char *s, uint64_t min,
		      uint64_t max, const char *want, uint64_t *out)
{
	uint64_t v;

	if (fp_size_parse(s, &v) || v < min || v > max || (v & (v - 1)))
		return bad_value(opt, s, want);
	*out = v;
	return EXIT_OK;
}

/* --size SIZE|auto and --free SIZE|PERCENT. */
static int parse_size(const struct cli_mkfs_args *a, struct mk *k)
{
	uint64_t v = 0;

	if (a->size && !strcmp(a->size, "auto")) {
		k->size_auto = 1;
	} else if (a->size) {
		if (fp_size_parse(a->size, &k->size) || k->size == 0)
			return bad_value("size", a->size, "give bytes with an "
					 "optional K, M, G, T suffix, or auto");
		k->has_size = 1;
	}
	if (!a->free)
		return EXIT_OK;
	if (!k->size_auto)
		return bad_value("free", a->free, "it needs --size auto");
	if (a->free[0] && a->free[strlen(a->free) - 1] == '%') {
		char *num = strndup(a->free, strlen(a->free) - 1);
		int ret = num ? parse_num("free", num, 10, 0, 1000,
					  "give SIZE or 0% to 1000%", &v) :
			  EXIT_OPERATIONAL;

		free(num);
		k->free_pct = (unsigned)v;
		return ret;
	}
	if (fp_size_parse(a->free, &k->free_len))
		return bad_value("free", a->free, "give SIZE or PERCENT%");
	return EXIT_OK;
}

/* The geometry options into k->o. */
static int parse_geom(const struct cli_mkfs_args *a, struct mk *k)
{
	uint64_t v = 0;
	int ret = EXIT_OK;

	if (a->fat && !ret) {
		ret = parse_num("fat", a->fat, 10, 12, 32, "give 12, 16 or 32",
				&v);
		if (!ret && v != 12 && v != 16 && v != 32)
			ret = bad_value("fat", a->fat, "give 12, 16 or 32");
		k->o.type = (enum fp_fat_type)v;
	}
	if (a->sector && !ret) {
		ret = parse_pow2("sector-size", a->sector, 512, 4096,
				 "give 512, 1024, 2048 or 4096 bytes", &v);
		k->o.sec_len = (uint32_t)v;
	}
	if (a->cluster && !ret) {
		ret = parse_pow2("cluster-size", a->cluster, 512,
				 FP_CLUSTER_MAX, "give a power of 2 from 512 "
				 "bytes to 256K", &v);
		k->o.clus_len = (uint32_t)v;
	}
	if (a->align && !ret) {
		ret = parse_pow2("align", a->align, 512, 1ull << 30,
				 "give a power of 2 from 512 bytes to 1G", &v);
		k->o.align = v;
	}
	if (a->fats && !ret) {
		ret = parse_num("fats", a->fats, 10, 1, 255,
				"give 1 to 255", &v);
		k->o.fat_count = (uint32_t)v;
	}
	if (a->reserved && !ret) {
		ret = parse_num("reserved", a->reserved, 10, 1, 65535,
				"give 1 to 65535 sectors", &v);
		k->o.reserved_secs = (uint32_t)v;
	}
	return ret;
}

/* The rest of the geometry options into k->o. */
static int parse_geom2(const struct cli_mkfs_args *a, struct mk *k)
{
	uint64_t v = 0;
	int ret = EXIT_OK;

	if (a->hidden && !ret) {
		ret = parse_num("hidden", a->hidden, 10, 0, UINT32_MAX,
				"give 0 to 4294967295 sectors", &v);
		k->o.hidden_secs = (uint32_t)v;
		k->o.has_hidden = 1;
	}
	if (a->root && !ret) {
		ret = parse_num("root-entries", a->root, 10, 1, 65535,
				"give 1 to 65535 entries", &v);
		k->o.root_entries = (uint32_t)v;
		k->o.has_root_entries = 1;
	}
	if (a->media && !ret) {
		ret = parse_num("media", a->media, 0, 0xF0, 0xFF,
				"give 0xF0 or 0xF8 to 0xFF", &v);
		if (!ret && v != 0xF0 && v < 0xF8)
			ret = bad_value("media", a->media,
					"give 0xF0 or 0xF8 to 0xFF");
		k->o.media = (uint8_t)v;
	}
	if (a->volume_id && !ret) {
		if (strlen(a->volume_id) > 8 ||
		    strspn(a->volume_id, "0123456789abcdefABCDEF") !=
		    strlen(a->volume_id))
			return bad_value("volume-id", a->volume_id,
					 "give 1 to 8 hex digits");
		ret = parse_num("volume-id", a->volume_id, 16, 0, UINT32_MAX,
				"give 1 to 8 hex digits", &v);
		k->m.volume_id = (uint32_t)v;
		k->has_volume_id = 1;
	}
	return ret;
}

/* --label and --boot-code; the volume id and the label entry's time. */
static int parse_meta(const struct cli *c, struct mk *k)
{
	const struct cli_mkfs_args *a = &c->mk;
	struct timeval tv;
	FILE *f;

	if (a->label) {
		if (fp_mkfs_label(a->label, k->m.label))
			return bad_value("label", a->label, "give 1 to 11 "
					 "ASCII characters, no leading space, "
					 "none of *?.,;:/\\|+=<>[]\"");
		k->m.has_label = 1;
	}
	k->m.time = c->time;
	k->m.utc = c->utc;
	if (!k->has_volume_id && c->clamp) {
		k->m.volume_id = fp_mkfs_volume_id(c->time, a->label);
	} else if (!k->has_volume_id) {
		gettimeofday(&tv, NULL);
		k->m.volume_id = fp_mkfs_volume_id((int64_t)tv.tv_sec *
						   1000000 + tv.tv_usec,
						   a->label);
	}
	if (!a->boot_code)
		return EXIT_OK;
	k->code = malloc(FP_MKFS_CODE_END + 1);
	f = fopen(a->boot_code, "rb");
	if (!k->code || !f) {
		cli_msg("cannot read '%s': %s", a->boot_code, strerror(errno));
		if (f)
			fclose(f);
		return EXIT_OPERATIONAL;
	}
	k->code_len = fread(k->code, 1, FP_MKFS_CODE_END + 1, f);
	fclose(f);
	return EXIT_OK;
}

/* The boot code's length against the type chosen. */
static int check_code(const struct cli *c, struct mk *k,
		      const struct fp_mkfs_geom *g)
{
	size_t want = fp_mkfs_code_len(g->type);

	if (!k->code)
		return EXIT_OK;
	if (k->code_len != want) {
		cli_msg("'%s' is %s%zu bytes of boot code; FAT%d takes exactly "
		    "%zu (bytes %d to 509 of the boot sector)", c->mk.boot_code,
		    k->code_len > FP_MKFS_CODE_END ? "over " : "",
		    k->code_len > FP_MKFS_CODE_END ? (size_t)FP_MKFS_CODE_END :
		    k->code_len, (int)g->type, want,
		    FP_MKFS_CODE_END - (int)want);
		return cli_try_help();
	}
	k->m.boot_code = k->code;
	return EXIT_OK;
}

/* Whether an option chose any of the geometry (else the target did). */
static int geom_given(const struct cli_mkfs_args *a)
{
	return a->size || a->fat || a->cluster || a->sector || a->fats ||
	       a->reserved || a->root || a->align;
}

/*
 * The rules of --profile that every geometry left to choose breaks, one
 * line each: a usage error when options chose the geometry, else the
 * target's size or partition type is what breaks them (exit 8).
 */
static int profile_error(const struct cli *c, const struct fp_mkfs_diag *d)
{
	const struct fp_profile_rule *r;
	char buf[512];
	int usage = 0;
	size_t i;

	for (i = 0; i < d->rule_count; i++) {
		r = d->rules[i].rule;
		fp_profile_rule_format(r, d->rules[i].figure, d->rules[i].limit,
				       buf, sizeof(buf));
		cli_msg("cannot make FAT%d in '%s' for --profile %s: %s",
		    (int)d->type, c->image, c->profile_arg, buf);
		usage |= !fp_profile_rule_part(r) && geom_given(&c->mk);
	}
	return usage ? cli_try_help() : EXIT_OPERATIONAL;
}

/* The refusal of fp_mkfs_geom(), with its reason. */
static int geom_error(const struct cli *c, const struct fp_mkfs_diag *d)
{
	static const char *const why[] = {
		[FP_MKFS_TOO_SMALL] = "%" PRIu64 " bytes leave no room for "
			"data",
		[FP_MKFS_TOO_BIG] = "%" PRIu64 " sectors are over the 2^32 - 1 "
			"a FAT boot sector can count; give a larger "
			"--sector-size",
		[FP_MKFS_FAT12_MANY] = "%" PRIu64 " clusters are over the 4084 "
			"of FAT12 (readers would take it for FAT16); give a "
			"larger --cluster-size or another --fat",
		[FP_MKFS_FAT16_FEW] = "%" PRIu64 " clusters are under the 4085 "
			"of FAT16 (readers would take it for FAT12); give a "
			"smaller --cluster-size or another --fat",
		[FP_MKFS_FAT16_MANY] = "%" PRIu64 " clusters are over the "
			"65524 of FAT16 (readers would take it for FAT32); "
			"give a larger --cluster-size or --fat 32",
		[FP_MKFS_FAT32_FEW] = "%" PRIu64 " clusters are under the "
			"65525 of FAT32 (readers would take it for FAT16); "
			"give a smaller --cluster-size, a larger --size or "
			"--fat 16",
		[FP_MKFS_FAT32_MANY] = "%" PRIu64 " clusters are over the "
			"268435445 of FAT32; give a larger --cluster-size "
			"(over 32K only when asked for)",
		[FP_MKFS_RESERVED] = "%" PRIu64 " reserved sectors: FAT32 "
			"needs 8 to 65535 (boot sector, FSInfo, their backups "
			"at 6 and 7)",
		[FP_MKFS_ROOT] = "%" PRIu64 " root entries: FAT12/16 need "
			"whole sectors of entries, FAT32 has none",
		[FP_MKFS_ALIGN] = "the data area cannot start on a multiple of "
			"%" PRIu64 " bytes with the values given",
		[FP_MKFS_CLUSTER] = "%" PRIu64 "-byte clusters: give a power "
			"of 2 of 1 to 128 sectors, at most 256K",
		[FP_MKFS_SECTOR] = "%" PRIu64 "-byte sectors: give 512 to 4096",
		[FP_MKFS_OFFSET] = "offset %" PRIu64 " is not on a sector",
	};
	char buf[256];

	if (d->why == FP_MKFS_PROFILE)
		return profile_error(c, d);
	snprintf(buf, sizeof(buf), why[d->why], d->figure);
	if (d->type)
		cli_msg("cannot make FAT%d in '%s': %s", (int)d->type, c->image,
		    buf);
	else
		cli_msg("cannot make a FAT filesystem in '%s': %s", c->image,
		    buf);
	return cli_try_help();
}

static int parse_mk(const struct cli *c, struct mk *k)
{
	int ret;

	memset(k, 0, sizeof(*k));
	ret = parse_size(&c->mk, k);
	if (!ret)
		ret = parse_geom(&c->mk, k);
	if (!ret)
		ret = parse_geom2(&c->mk, k);
	if (!ret)
		ret = parse_meta(c, k);
	return ret;
}

/*
 * Plan the requests on the volume @g would be: FP_OK when they fit, with
 * *free_cl; a message and an exit code otherwise, unless @quiet.
 */
static int fits(const struct cli *c, const struct mk *k,
		const struct fp_mkfs_geom *g, uint32_t *free_cl, int quiet,
		enum fp_err *errp)
{
	struct fp_plan_opts po;
	struct fp_plan_diag diag;
	struct fp_geom fg;
	enum fp_err err;

	cli_plan_opts(c, &po);
	memset(&diag, 0, sizeof(diag));
	err = fp_mkfs_plan_fits(g, &k->m, &po, fp_reqs_array(c->rq),
				fp_reqs_count(c->rq), free_cl, &fg, &diag);
	*errp = err;
	if (!err)
		return EXIT_OK;
	if (quiet && (err == FP_E_NOSPC || err == FP_E_NORUN))
		return EXIT_OPERATIONAL;
	if (err == FP_E_SRC) {
		cli_msg("cannot read '%s': %s; nothing was written",
		    fp_reqs_src(c->rq, diag.req)->host, strerror(diag.errnum));
		return EXIT_OPERATIONAL;
	}
	if (err == FP_E_NOMEM || err == FP_E_IO) {
		cli_msg("cannot plan '%s': %s", c->image, fp_strerror(err));
		return EXIT_OPERATIONAL;
	}
	return cli_plan_error(c, NULL, err, &diag, &fg);
}

static uint64_t round_up(uint64_t v, uint64_t step)
{
	return (v + step - 1) / step * step;
}

/* Too small for the type: a larger size may do. */
static int too_few(enum fp_mkfs_why why)
{
	return why == FP_MKFS_TOO_SMALL || why == FP_MKFS_FAT16_FEW ||
	       why == FP_MKFS_FAT32_FEW || why == FP_MKFS_PROFILE;
}

/* The geometry of k->o under --profile (fp_mkfs_geom_profile()). */
static enum fp_err plan_geom(const struct cli *c, const struct mk *k,
			     struct fp_mkfs_geom *g, struct fp_mkfs_diag *d)
{
	return fp_mkfs_geom_profile(&k->o, c->profile, &k->where, g, d);
}

/*
 * --size auto: from the content's bytes plus the slack asked for, the
 * size grows in steps of the alignment (1 MiB) by a sixteenth at a time
 * until the plan fits and leaves the slack free, and keeps the rules of
 * --profile (a UEFI ESP grows to 32 MiB and the clusters FAT32 needs).
 */
static int auto_size(const struct cli *c, struct mk *k,
		     struct fp_mkfs_geom *g, uint32_t *free_cl)
{
	uint64_t step = k->o.align > FP_MKFS_ALIGN_DEFAULT ? k->o.align :
			FP_MKFS_ALIGN_DEFAULT;
	uint64_t content = 0, want, len;
	struct fp_mkfs_diag d;
	enum fp_err err;
	size_t i;
	int t, ret;

	memset(&d, 0, sizeof(d));
	for (i = 0; i < fp_reqs_count(c->rq); i++)
		content += fp_reqs_size(c->rq, i);
	want = k->free_pct ? content / 100 * k->free_pct : k->free_len;
	len = round_up(content + want + content / 32 + step, step);
	for (t = 0; t < AUTO_TRIES; t++) {
		k->o.vol_len = len;
		err = plan_geom(c, k, g, &d);
		if (err && !too_few(d.why))
			return geom_error(c, &d);
		if (!err) {
			ret = fits(c, k, g, free_cl, 1, &err);
			if (!ret && (uint64_t)*free_cl * g->clus_len >= want)
				return EXIT_OK;
			if (ret && err != FP_E_NOSPC && err != FP_E_NORUN)
				return ret;
		}
		len += round_up(len / 16, step);
	}
	if (d.why == FP_MKFS_PROFILE)
		return geom_error(c, &d);
	cli_msg("cannot find a size for '%s' that holds the content", c->image);
	return EXIT_OPERATIONAL;
}

/* The volume's geometry, for --verbose and --dry-run. */
static void print_geom(const struct cli *c, const struct fp_mkfs_geom *g,
		       uint32_t free_cl)
{
	printf("%s: FAT%d, %" PRIu64 " bytes, %" PRIu32 " clusters of %"
	       PRIu32 " bytes (%" PRIu32 " free after the copies), %" PRIu32
	       "-byte sectors, %" PRIu32 " reserved, %" PRIu32 " FAT%s of %"
	       PRIu32 " sectors, %" PRIu32 " root entries, data at byte %"
	       PRIu64 "\n", c->image, (int)g->type,
	       g->total_secs * g->sec_len, g->cluster_count, g->clus_len,
	       free_cl, g->sec_len, g->reserved_secs, g->fat_count,
	       g->fat_count == 1 ? "" : "s", g->fat_secs, g->root_entries,
	       g->data_off);
}

/*
 * Open the target as the volume to make: the partition, or the image from
 * the offset on, whatever it holds; locked, a mounted device refused.
 */
static int open_target(const struct cli *c, struct fp_vol **vol)
{
	unsigned flags = FP_VOL_WRITE | FP_VOL_NOFS | FP_VOL_NEW |
			 (c->wait ? FP_VOL_WAIT : 0) |
			 (c->has_offset ? FP_VOL_OFFSET : 0);
	struct fp_vol_diag d;
	enum fp_err err;

	err = fp_vol_open(c->image, c->partition, c->offset, flags, vol, &d);
	return err ? cli_vol_error(c, err, &d) : EXIT_OK;
}

/* How make_target() left the target, for undoing it on failure. */
enum made {
	MADE_NOTHING,
	MADE_FILE,		/* created: removed on failure */
	MADE_GROWN,		/* an existing file grown: cut back */
};

/*
 * A new file: created (O_EXCL) with the volume's length; an existing
 * regular file grown to hold it.  Shrinking waits for success.
 */
static int make_target(const struct cli *c, uint64_t end, int exists,
		       const struct stat *st, enum made *made)
{
	int fd = -1;

	if (exists && (!S_ISREG(st->st_mode) || (uint64_t)st->st_size >= end))
		return EXIT_OK;
	fd = exists ? open(c->image, O_WRONLY | O_CLOEXEC) :
	     open(c->image, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0)
		*made = exists ? MADE_GROWN : MADE_FILE;
	if (fd < 0 || ftruncate(fd, (off_t)end) < 0) {
		cli_msg("cannot %s '%s': %s", exists ? "grow" : "create",
		    c->image, strerror(errno));
		if (fd >= 0)
			close(fd);
		return EXIT_OPERATIONAL;
	}
	if (close(fd) < 0) {
		cli_msg("cannot create '%s': %s", c->image, strerror(errno));
		return EXIT_OPERATIONAL;
	}
	return EXIT_OK;
}

/*
 * Undo make_target() after a failure before anything was formatted: a
 * new file removed, a grown one cut back to its old length (the bytes
 * added were zeros), so that a refusal leaves the image as it was.
 */
static void unmake_target(const struct cli *c, enum made made,
			  const struct stat *st, int formatted)
{
	if (made == MADE_FILE)
		unlink(c->image);
	else if (made == MADE_GROWN && !formatted &&
		 truncate(c->image, st->st_size) < 0)
		cli_msg("cannot cut '%s' back to %lld bytes: %s", c->image,
		    (long long)st->st_size, strerror(errno));
}

/* Format the volume of @vol and plan, commit the requests into it. */
static int format_fill(const struct cli *c, const struct mk *k,
		       const struct fp_mkfs_geom *g, struct fp_vol *vol,
		       cli_fill_fn *fill)
{
	struct fp_img *img = fp_vol_img(vol);
	struct fp_fs *fs = NULL;
	enum fp_err err;
	int ret = EXIT_OK;

	err = fp_mkfs_write(img, g, &k->m, 0);
	if (!err)
		err = fp_fs_open(img, &fs);
	if (!err && !fp_reqs_count(c->rq) && !c->no_sync)
		err = fp_img_sync(img);
	if (err) {
		cli_msg("cannot write '%s': %s", c->image, err == FP_E_IO ?
		    strerror(fp_img_errno(img)) : fp_strerror(err));
		ret = EXIT_OPERATIONAL;
	} else if (fp_reqs_count(c->rq)) {
		ret = fill(c, img, fs);
	}
	fp_fs_free(fs);
	return ret;
}

/* The geometry of a volume of the size given or found, and the plan. */
static int choose(const struct cli *c, struct mk *k, struct fp_mkfs_geom *g,
		  uint32_t *free_cl)
{
	struct fp_mkfs_diag d;
	enum fp_err err;
	int ret;

	if (k->size_auto) {
		ret = auto_size(c, k, g, free_cl);
		return ret ? ret : check_code(c, k, g);
	}
	if (k->has_size)
		k->o.vol_len = k->size;
	if (plan_geom(c, k, g, &d))
		return geom_error(c, &d);
	ret = check_code(c, k, g);
	return ret ? ret : fits(c, k, g, free_cl, 0, &err);
}

/* The target as it is: whether it exists, and what it is. */
static int look_at(const struct cli *c, const struct mk *k, struct stat *st,
		   int *exists)
{
	*exists = stat(c->image, st) == 0;
	if (!*exists && errno != ENOENT) {
		cli_msg("cannot open '%s': %s", c->image, strerror(errno));
		return EXIT_OPERATIONAL;
	}
	if (!*exists && (c->partition || (!k->has_size && !k->size_auto))) {
		cli_msg("'%s' does not exist%s", c->image, c->partition ? "" :
		    ": give --size to create it");
		return c->partition ? EXIT_OPERATIONAL : cli_try_help();
	}
	if (*exists && !S_ISREG(st->st_mode) && !S_ISBLK(st->st_mode)) {
		cli_msg("'%s' is neither a regular file nor a block device",
		    c->image);
		return EXIT_OPERATIONAL;
	}
	return EXIT_OK;
}

/* Shrink a whole regular file given --size to the volume, once made. */
static int shrink(const struct cli *c, const struct mk *k,
		  const struct stat *st)
{
	uint64_t end = k->o.dev_off + k->o.vol_len;

	if (!S_ISREG(st->st_mode) || c->has_offset || !k->has_size ||
	    (uint64_t)st->st_size <= end)
		return EXIT_OK;
	if (truncate(c->image, (off_t)end) < 0) {
		cli_msg("cannot shrink '%s': %s", c->image, strerror(errno));
		return EXIT_OPERATIONAL;
	}
	return EXIT_OK;
}

/*
 * Nothing is written until the geometry is chosen and the content is
 * planned on it in memory; a new IMAGE is removed on any failure.
 */
int cli_run_mkfs(const struct cli *c, cli_fill_fn *fill)
{
	struct fp_mkfs_geom g;
	struct fp_vol *vol = NULL;
	struct stat st;
	uint32_t free_cl = 0;
	int exists = 0, formatted = 0, errnum = 0;
	enum made made = MADE_NOTHING;
	struct mk k;
	int ret;

	ret = parse_mk(c, &k);
	if (!ret)
		ret = look_at(c, &k, &st, &exists);
	k.o.dev_off = c->offset;
	if (!ret && exists && !k.has_size && !k.size_auto) {
		ret = open_target(c, &vol);
		if (!ret) {
			k.o.vol_len = fp_img_len(fp_vol_img(vol));
			k.o.dev_off = fp_img_base(fp_vol_img(vol));
			fp_profile_geom_where(&k.where, fp_vol_locate(vol));
		}
	}
	if (!ret)
		ret = choose(c, &k, &g, &free_cl);
	if (!ret && (c->dry_run || c->verbose))
		print_geom(c, &g, free_cl);
	if (ret || c->dry_run)
		goto out;
	if (!vol) {
		ret = make_target(c, k.o.dev_off + k.o.vol_len, exists, &st,
				  &made);
		if (!ret)
			ret = open_target(c, &vol);
		if (!ret && fp_img_set_window(fp_vol_img(vol), k.o.dev_off,
					      k.o.vol_len)) {
			cli_msg("'%s' is smaller than --size", c->image);
			ret = EXIT_OPERATIONAL;
		}
	}
	formatted = !ret;
	if (!ret)
		ret = format_fill(c, &k, &g, vol, fill);
out:
	if (vol && fp_vol_close(vol, &errnum) && !ret) {
		cli_msg("cannot close '%s': %s", c->image, strerror(errnum));
		ret = EXIT_OPERATIONAL;
	}
	if (!ret && !c->dry_run)
		ret = shrink(c, &k, &st);
	if (ret)
		unmake_target(c, made, &st, formatted);
	free(k.code);
	return ret;
}
