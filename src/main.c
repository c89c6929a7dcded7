/* main.c - the fatprealloc command line: options, messages, exit codes. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <popt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "image.h"
#include "plan.h"
#include "report.h"
#include "size.h"

/* Exit codes, as fsck(8). */
#define EXIT_OK 0
#define EXIT_INCONSISTENT 4
#define EXIT_OPERATIONAL 8
#define EXIT_USAGE 16

#define PROG "fatprealloc"

struct cli {
	int keep_size, zero, contiguous, parents;
	int dry_run, json, verbose, quiet, no_sync, force;
	int help, version;
	int verify, strict, wait, map;
	char *partition_arg;	/* -P N */
	unsigned partition;
	int has_offset;
	char *timestamp;
	char *offset_arg;	/* -o BYTES */
	char *image;		/* IMAGE without any @@OFFSET */
	uint64_t offset;
	struct fp_req *reqs;
	size_t req_count;
	int64_t time;
	int utc;
	poptContext con;	/* owns the argument strings */
};

static void msg(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs(PROG ": ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry '" PROG " --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

static void print_help(void)
{
	fputs("Usage: " PROG " [OPTIONS] IMAGE ::PATH SIZE [::PATH SIZE ...]\n"
	      "       " PROG " --verify [--json] [--strict] IMAGE\n"
	      "       " PROG " --map [--json] IMAGE ::PATH...\n"
	      "\n"
	      "Preallocate files in an unmounted FAT12/16/32 image, as\n"
	      "fallocate(1) does at offset 0, without writing their data.\n"
	      "\n"
	      "Options:\n"
	      " -n, --keep-size        allocate clusters, keep the file size\n"
	      " -z, --zero             with -n, zero the allocated clusters\n"
	      " -c, --contiguous       new clusters of each file in one run\n"
	      " -p, --parents          create missing directories\n"
	      " -o, --offset BYTES     the filesystem starts at BYTES into\n"
	      "                        IMAGE (also IMAGE@@BYTES, as mtools)\n"
	      " -P, --partition N      use partition N of an MBR or GPT\n"
	      "     --wait             wait for another process's lock\n"
	      " -t, --timestamp EPOCH  time of new entries (UTC), default\n"
	      "                        $SOURCE_DATE_EPOCH, else now (local)\n"
	      "     --dry-run          print the plan, write nothing\n"
	      "     --json             with --dry-run, -v, --verify or --map:\n"
	      "                        print JSON\n"
	      "     --verify           check IMAGE read-only, fsck-style\n"
	      "     --strict           with --verify: warnings are errors\n"
	      "     --map              print where the files' clusters are\n"
	      "     --force            go on although the image is dirty, its\n"
	      "                        FAT copies differ, or it is attached\n"
	      "                        to a loop device\n"
	      "     --no-sync          skip the final fsync\n"
	      " -v, --verbose          print what was done\n"
	      " -q, --quiet            print errors only\n"
	      " -h, --help             display this help\n"
	      " -V, --version          display version\n"
	      "\n"
	      "SIZE is bytes, with an optional suffix K, M, G, T (or KiB,\n"
	      "MiB, GiB, TiB: powers of 1024) or KB, MB, GB, TB (powers\n"
	      "of 1000); at most 4294967295 (4 GiB - 1).\n"
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

struct path_key {
	char *key;
	size_t req;
};

static int key_cmp(const void *a, const void *b)
{
	const struct path_key *x = a, *y = b;
	int d = strcmp(x->key, y->key);

	return d ? d : (x->req > y->req) - (x->req < y->req);
}

/*
 * A file named twice is a usage error, found before the image is read:
 * sort the paths' keys and compare neighbours.
 */
static int check_duplicates(const struct cli *c)
{
	struct path_key *k = calloc(c->req_count, sizeof(*k));
	int ret = EXIT_OK;
	size_t i;

	for (i = 0; k && i < c->req_count; i++) {
		k[i].req = i;
		k[i].key = fp_plan_path_key(c->reqs[i].path);
		if (!k[i].key)
			break;
	}
	if (!k || i < c->req_count) {
		msg("out of memory");
		ret = EXIT_OPERATIONAL;
	} else {
		qsort(k, c->req_count, sizeof(*k), key_cmp);
		for (i = 1; i < c->req_count && !ret; i++)
			if (!strcmp(k[i].key, k[i - 1].key))
				ret = usage_error("'::%s' is given twice",
						  c->reqs[k[i].req].path);
	}
	for (i = 0; k && i < c->req_count; i++)
		free(k[i].key);
	free(k);
	return ret;
}

/* --map IMAGE ::PATH...: requests without sizes. */
static int parse_map_paths(struct cli *c, const char **args, size_t n)
{
	size_t i;

	if (n == 0)
		return usage_error("%s", "--map needs at least one ::PATH");
	c->reqs = calloc(n, sizeof(*c->reqs));
	if (!c->reqs) {
		msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	c->req_count = n;
	for (i = 0; i < n; i++) {
		if (strncmp(args[i], "::", 2))
			return usage_error("path '%s' does not start with ::",
					   args[i]);
		c->reqs[i].path = args[i] + 2;
	}
	return EXIT_OK;
}

/* Turn the ::PATH SIZE pairs into requests. */
static int parse_pairs(struct cli *c, const char **args, size_t n)
{
	size_t i;

	if (n == 0 || n % 2)
		return usage_error("%s", n ? "missing SIZE after the last path"
				   : "no ::PATH SIZE given");
	c->req_count = n / 2;
	c->reqs = calloc(c->req_count, sizeof(*c->reqs));
	if (!c->reqs) {
		msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	for (i = 0; i < c->req_count; i++) {
		const char *path = args[2 * i], *size = args[2 * i + 1];

		if (strncmp(path, "::", 2))
			return usage_error("path '%s' does not start with ::",
					   path);
		c->reqs[i].path = path + 2;
		if (fp_size_parse(size, &c->reqs[i].size))
			return usage_error("invalid size '%s'", size);
	}
	return check_duplicates(c);
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
		msg("out of memory");
		return EXIT_OPERATIONAL;
	}
	if (at)
		off = at + 2;
	if (off && fp_size_parse(off, &c->offset))
		return usage_error("invalid offset '%s'", off);
	c->has_offset = off != NULL;
	return parse_partition(c);
}

static int parse_args(struct cli *c, int argc, const char **argv)
{
	struct poptOption opts[] = {
		{ "keep-size", 'n', POPT_ARG_NONE, &c->keep_size, 0, NULL, NULL },
		{ "zero", 'z', POPT_ARG_NONE, &c->zero, 0, NULL, NULL },
		{ "contiguous", 'c', POPT_ARG_NONE, &c->contiguous, 0, NULL, NULL },
		{ "parents", 'p', POPT_ARG_NONE, &c->parents, 0, NULL, NULL },
		{ "timestamp", 't', POPT_ARG_STRING, &c->timestamp, 0, NULL, NULL },
		{ "offset", 'o', POPT_ARG_STRING, &c->offset_arg, 0, NULL, NULL },
		{ "partition", 'P', POPT_ARG_STRING, &c->partition_arg, 0, NULL, NULL },
		{ "wait", 0, POPT_ARG_NONE, &c->wait, 0, NULL, NULL },
		{ "dry-run", 0, POPT_ARG_NONE, &c->dry_run, 0, NULL, NULL },
		{ "json", 0, POPT_ARG_NONE, &c->json, 0, NULL, NULL },
		{ "force", 0, POPT_ARG_NONE, &c->force, 0, NULL, NULL },
		{ "verify", 0, POPT_ARG_NONE, &c->verify, 0, NULL, NULL },
		{ "map", 0, POPT_ARG_NONE, &c->map, 0, NULL, NULL },
		{ "strict", 0, POPT_ARG_NONE, &c->strict, 0, NULL, NULL },
		{ "no-sync", 0, POPT_ARG_NONE, &c->no_sync, 0, NULL, NULL },
		{ "verbose", 'v', POPT_ARG_NONE, &c->verbose, 0, NULL, NULL },
		{ "quiet", 'q', POPT_ARG_NONE, &c->quiet, 0, NULL, NULL },
		{ "help", 'h', POPT_ARG_NONE, &c->help, 0, NULL, NULL },
		{ "version", 'V', POPT_ARG_NONE, &c->version, 0, NULL, NULL },
		POPT_TABLEEND
	};
	poptContext con = poptGetContext(PROG, argc, argv, opts, 0);
	const char **args;
	size_t n = 0;
	int rc, ret;

	rc = poptGetNextOpt(con);
	if (rc < -1) {
		ret = usage_error("%s", poptStrerror(rc));
		fprintf(stderr, "(at '%s')\n", poptBadOption(con, 0));
		goto out;
	}
	ret = EXIT_OK;
	if (c->help || c->version)
		goto out;
	args = poptGetArgs(con);
	if (!args || !args[0]) {
		ret = usage_error("%s", "no IMAGE given");
		goto out;
	}
	while (args[1 + n])
		n++;
	ret = parse_image(c, args[0]);
	if (!ret && c->verify && (n || c->map))
		ret = usage_error("%s", "--verify takes only IMAGE");
	else if (!ret && c->map)
		ret = parse_map_paths(c, args + 1, n);
	else if (!ret && !c->verify)
		ret = pick_time(c);
	if (!ret && !c->verify && !c->map)
		ret = parse_pairs(c, args + 1, n);
out:
	c->con = con;	/* the strings in c->reqs point into it */
	return ret;
}

static int fs_error(const struct cli *c, struct fp_img *img, enum fp_err err)
{
	if (err == FP_E_IO)
		msg("cannot read '%s': %s", c->image,
		    strerror(fp_img_errno(img)));
	else
		msg("'%s': %s", c->image, fp_strerror(err));
	return EXIT_OPERATIONAL;
}

static int check_error(const struct cli *c, enum fp_err err,
		       const struct fp_fs_diag *d)
{
	if (err == FP_E_FATDIFF)
		msg("'%s': FAT copy %" PRIu32 " differs from the active one "
		    "at cluster %" PRIu32 " (%" PRIu32 " %s); run fsck.fat, "
		    "or use --force", c->image, d->copy + 1, d->first_cl,
		    d->diff_count, d->diff_count == 1 ? "entry differs" :
		    "entries differ");
	else if (err == FP_E_DIRTY)
		msg("'%s': volume is marked dirty (not cleanly unmounted); "
		    "run fsck.fat, or use --force", c->image);
	else
		return EXIT_OPERATIONAL;
	return EXIT_INCONSISTENT;
}

static int exit_code_of(enum fp_err err)
{
	switch (err) {
	case FP_E_CORRUPT:
	case FP_E_FATDIFF:
	case FP_E_DIRTY:
		return EXIT_INCONSISTENT;
	case FP_E_DUPPATH:
	case FP_E_NAME:
	case FP_E_NAMELEN:
	case FP_E_NONBMP:
		return EXIT_USAGE;
	default:
		return EXIT_OPERATIONAL;
	}
}

static int plan_error(const struct cli *c, struct fp_img *img,
		      enum fp_err err, const struct fp_plan_diag *d)
{
	const char *path = c->reqs[d->req].path;

	switch (err) {
	case FP_E_IO:
		return fs_error(c, img, err);
	case FP_E_NOSPC:
		msg("'%s': no space for '::%s': %" PRIu32 " clusters needed, "
		    "%" PRIu32 " free", c->image, path, d->need, d->avail);
		break;
	case FP_E_NORUN:
		msg("'%s': no contiguous run of %" PRIu32 " free clusters for "
		    "'::%s' (largest usable run: %" PRIu32 " clusters); try "
		    "without --contiguous", c->image, d->need, path,
		    d->avail);
		break;
	case FP_E_NOENT:
		msg("'%s': no directory '::%s' (use -p to create it)",
		    c->image, d->component);
		break;
	case FP_E_NOTDIR:
		msg("'%s': '::%s' is not a directory", c->image,
		    d->component);
		break;
	default:
		msg("'%s': '::%s': %s", c->image, path, fp_strerror(err));
		break;
	}
	if (exit_code_of(err) == EXIT_USAGE)
		fputs("Try '" PROG " --help' for more information.\n", stderr);
	return exit_code_of(err);
}

static void print_result(const struct cli *c, const struct fp_fs *fs,
			 const struct fp_plan *plan)
{
	if (c->json && (c->dry_run || c->verbose))
		fp_report_plan_json(stdout, c->image, fs, plan, c->dry_run);
	else if (c->dry_run || c->verbose)
		fp_report_plan_text(stdout, fs, plan, !c->dry_run);
}

static int run_plan(const struct cli *c, struct fp_img *img,
		    struct fp_fs *fs)
{
	struct fp_plan_opts po = {
		.keep_size = c->keep_size, .zero = c->zero,
		.contiguous = c->contiguous, .parents = c->parents,
		.time = c->time, .utc = c->utc,
	};
	struct fp_plan_diag diag;
	struct fp_plan *plan;
	enum fp_err err;
	int ret = EXIT_OK;

	err = fp_plan_build(fs, &po, c->reqs, c->req_count, &plan, &diag);
	if (err)
		return plan_error(c, img, err, &diag);
	if (c->keep_size && !c->quiet)
		msg("note: fsck.fat and Linux reclaim clusters past a file's "
		    "size; FatFs-based firmware reuses them when it appends");
	if (!c->dry_run) {
		err = fp_plan_commit(plan, c->no_sync);
		if (err) {
			msg("cannot write '%s': %s", c->image,
			    err == FP_E_IO ? strerror(fp_img_errno(img))
			    : fp_strerror(err));
			ret = EXIT_OPERATIONAL;
		}
	}
	if (!ret)
		print_result(c, fs, plan);
	fp_plan_free(plan);
	return ret;
}

/* Refuse what must not be written: a regular file behind a loop device. */
static int check_loop(const struct cli *c, struct fp_img *img)
{
	char name[64];

	if (c->force || !fp_img_is_regular(img) ||
	    !fp_img_loop_attached(c->image, name, sizeof(name)))
		return EXIT_OK;
	msg("'%s' is attached to /dev/%s and may be mounted; detach it "
	    "(losetup -d /dev/%s) or use --force", c->image, name, name);
	return EXIT_OPERATIONAL;
}

static int locate_error(const struct cli *c, struct fp_img *img,
			enum fp_err err, const struct fp_locate *loc)
{
	size_t i;

	if (err == FP_E_IO)
		return fs_error(c, img, err);
	if (err == FP_E_MANYPART) {
		fprintf(stderr, PROG ": '%s': several FAT partitions:",
			c->image);
		for (i = 0; i < loc->fat_count && i < FP_LOCATE_MAX; i++)
			fprintf(stderr, " %u", loc->fat_parts[i]);
		fputs("; choose one with --partition\n", stderr);
		return EXIT_USAGE;
	}
	if (err == FP_E_NOPART && loc->kind == FP_PT_NONE)
		msg("'%s': no partition table", c->image);
	else if (err == FP_E_NOPART)
		msg("'%s': no partition %u", c->image, c->partition);
	else if (err == FP_E_NOTFAT && c->partition)
		msg("'%s': partition %u is not a FAT filesystem", c->image,
		    c->partition);
	else if (err == FP_E_NOTFAT)
		msg("'%s': none of its partitions is a FAT filesystem",
		    c->image);
	else
		msg("'%s': %s", c->image, fp_strerror(err));
	return EXIT_OPERATIONAL;
}

/* Find the volume: an explicit offset, a partition, or by looking. */
static int place_window(const struct cli *c, struct fp_img *img)
{
	struct fp_locate loc = { .off = c->offset };
	enum fp_err err = FP_OK;

	if (!c->has_offset) {
		err = fp_fs_locate(img, c->partition, &loc);
		if (err && err != FP_E_NOTFAT)
			return locate_error(c, img, err, &loc);
		if (err && (c->partition || loc.kind != FP_PT_NONE))
			return locate_error(c, img, err, &loc);
	}
	if (loc.gpt_backup && !c->quiet)
		msg("warning: '%s': primary GPT is damaged, using the backup",
		    c->image);
	if (loc.part && c->verbose)
		msg("'%s': using partition %u at offset %" PRIu64, c->image,
		    loc.part, loc.off);
	if (fp_img_set_window(img, loc.off, loc.len)) {
		msg("'%s': offset %" PRIu64 " is beyond the end of the image",
		    c->image, loc.off);
		return EXIT_OPERATIONAL;
	}
	return EXIT_OK;
}

static int lock_image(const struct cli *c, struct fp_img *img, int write)
{
	enum fp_err err = fp_img_lock(img, write, c->wait);

	if (err == FP_E_LOCKED)
		msg("'%s': image is locked by another process (use --wait "
		    "to wait for it)", c->image);
	else if (err)
		msg("cannot lock '%s': %s", c->image,
		    strerror(fp_img_errno(img)));
	return err ? EXIT_OPERATIONAL : EXIT_OK;
}

/*
 * Open IMAGE (read-only unless @write), lock it for the whole run, refuse
 * a mounted device or loop-attached file, and window it to the volume.
 */
static int open_image(const struct cli *c, int write, struct fp_img **img)
{
	enum fp_err err;
	int errnum = 0, ret;

	err = fp_img_open(c->image, write ? FP_IMG_WRITE | FP_IMG_EXCL : 0,
			  img, &errnum);
	if (err) {
		msg("cannot open '%s': %s%s", c->image, errnum ?
		    strerror(errnum) : fp_strerror(err),
		    errnum == EBUSY ? " (is it mounted?)" : "");
		return EXIT_OPERATIONAL;
	}
	ret = lock_image(c, *img, write);
	if (!ret && write)
		ret = check_loop(c, *img);
	if (!ret)
		ret = place_window(c, *img);
	if (ret)
		fp_img_close(*img);
	return ret;
}

static int run_verify(const struct cli *c)
{
	struct fp_report *r = NULL;
	struct fp_img *img;
	enum fp_err err;
	int ret;

	ret = open_image(c, 0, &img);
	if (ret)
		return ret;
	err = fp_verify(img, &r);
	if (err) {
		ret = fs_error(c, img, err);
	} else {
		if (c->json)
			fp_report_verify_json(stdout, c->image, r);
		else if (!c->quiet || r->errors ||
			 (c->strict && r->warnings))
			fp_report_verify_text(stdout, r);
		ret = r->errors || (c->strict && r->warnings) ?
		      EXIT_INCONSISTENT : EXIT_OK;
	}
	fp_report_free(r);
	fp_img_close(img);
	return ret;
}

/* Print one file's map; 0 or an exit code. */
static int map_one(const struct cli *c, struct fp_img *img,
		   struct fp_fs *fs, size_t i)
{
	struct fp_plan_diag diag;
	struct fp_map m;
	enum fp_err err;

	err = fp_plan_map(fs, c->reqs[i].path, &m, &diag);
	if (err) {
		diag.req = i;
		return plan_error(c, img, err, &diag);
	}
	if (c->json) {
		fputs(i ? "," : "", stdout);
		fp_report_map_json(stdout, c->reqs[i].path, &m, &fs->geom,
				   fp_img_base(img));
	} else {
		fp_report_map_text(stdout, c->reqs[i].path, &m, &fs->geom,
				   fp_img_base(img));
	}
	fp_map_release(&m);
	return EXIT_OK;
}

static int run_map(const struct cli *c)
{
	struct fp_img *img;
	struct fp_fs *fs = NULL;
	enum fp_err err;
	size_t i;
	int ret, rc;

	ret = open_image(c, 0, &img);
	if (ret)
		return ret;
	err = fp_fs_open(img, &fs);
	if (err) {
		ret = fs_error(c, img, err);
		goto out;
	}
	if (c->json) {
		fputs("{\"image\":", stdout);
		fp_report_json_string(stdout, c->image);
		printf(",\"volume_offset\":%" PRIu64 ",\"cluster_size\":%"
		       PRIu32 ",\"files\":[", fp_img_base(img),
		       fs->geom.clus_len);
	}
	for (i = 0; i < c->req_count; i++) {
		rc = map_one(c, img, fs, i);
		if (rc && !ret)
			ret = rc;
	}
	if (c->json)
		puts("]}");
out:
	fp_fs_free(fs);
	fp_img_close(img);
	return ret;
}

static int run(const struct cli *c)
{
	struct fp_img *img = NULL;
	struct fp_fs *fs = NULL;
	struct fp_fs_diag diag;
	enum fp_err err;
	int ret;

	ret = open_image(c, !c->dry_run, &img);
	if (ret)
		return ret;
	err = fp_fs_open(img, &fs);
	if (err) {
		ret = fs_error(c, img, err);
		goto out;
	}
	err = fp_fs_check(fs, &diag);
	if (err == FP_E_IO) {
		ret = fs_error(c, img, err);
		goto out;
	}
	if (err && !c->force) {
		ret = check_error(c, err, &diag);
		goto out;
	}
	ret = run_plan(c, img, fs);
out:
	fp_fs_free(fs);
	if (fp_img_close(img) && !ret) {
		msg("cannot close '%s': %s", c->image, strerror(errno));
		ret = EXIT_OPERATIONAL;
	}
	return ret;
}

static int close_stdout(int ret)
{
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		if (errno != EPIPE)
			msg("write error: %s", strerror(errno));
		return ret ? ret : EXIT_OPERATIONAL;
	}
	return ret;
}

int main(int argc, const char **argv)
{
	struct cli c;
	int ret;

	memset(&c, 0, sizeof(c));
	ret = parse_args(&c, argc, argv);
	if (!ret && c.help)
		print_help();
	else if (!ret && c.version)
		printf(PROG " " PACKAGE_VERSION "\n");
	else if (!ret && c.verify)
		ret = run_verify(&c);
	else if (!ret && c.map)
		ret = run_map(&c);
	else if (!ret)
		ret = run(&c);
	free(c.reqs);
	free(c.image);
	free(c.timestamp);
	free(c.offset_arg);
	free(c.partition_arg);
	poptFreeContext(c.con);
	return close_stdout(ret);
}
