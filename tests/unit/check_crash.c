/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * check_crash.c - a preallocation cut short by a fault at any of its writes
 * or reads (a dead device, EIO, ENOSPC, a short write, a failed read)
 * reports the error and leaves a sound image.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dir.h"
#include "edit_label.h"
#include "le.h"
#include "map.h"
#include "mirror.h"
#include "plan.h"
#include "verify.h"
#include "tmpdir.h"

/*
 * A FAT32 volume from mkfs.fat (2 FATs, FSInfo, 512-byte clusters so that
 * a directory fills quickly), prepared by fatprealloc itself: a file to
 * extend, a large file to keep right behind it (so the extension lands
 * more than a FAT sector away and its link is a write of its own), and a
 * directory whose first cluster is full.
 */
static uint8_t *base;
static uint64_t base_len;

/*
 * 1 while a label change is cut: a FAT32 backup boot sector whose label
 * lags (boot-backup-label, docs/DESIGN.md "Labels") is what it leaves.
 */
static int label_cut;

/* base: a volume made by mkfs.fat -F @bits -s 1 of @kib KiB. */
static void load_mkfs_image(unsigned bits, unsigned kib)
{
	char dir[TEST_TMPL_LEN], path[TEST_TMPL_LEN + 16];
	char cmd[TEST_TMPL_LEN + 96];
	FILE *f;

	ck_assert_ptr_nonnull(
		mkdtemp(test_tmpl(dir, sizeof(dir), "check_crash")));
	snprintf(path, sizeof(path), "%s/x.img", dir);
	snprintf(cmd, sizeof(cmd), "mkfs.fat -C --invariant -F %u -s 1 "
		 "'%s' %u >/dev/null 2>&1", bits, path, kib);
	ck_assert_msg(system(cmd) == 0, "mkfs.fat (dosfstools) is needed");
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	base_len = (uint64_t)ftell(f);
	rewind(f);
	base = malloc(base_len);
	ck_assert_ptr_nonnull(base);
	ck_assert_uint_eq(fread(base, 1, base_len, f), base_len);
	fclose(f);
	unlink(path);
	rmdir(dir);
}

/*
 * The host file that the run copies: COPY_LEN bytes of pattern(9, pos),
 * with a hole from 400000 to 900000 (zeros), more than one 1 MiB buffer.
 */
#define COPY_LEN 1200000u
#define COPY_HOLE_OFF 400000u
#define COPY_HOLE_END 900000u
static char copy_dir[4096], copy_path[4200];
static struct fp_req_src work_srcs[6];

static uint8_t copy_byte(uint64_t pos);

static void make_copy_source(void)
{
	ck_assert_ptr_nonnull(mkdtemp(test_tmpl(copy_dir, sizeof(copy_dir),
						"check_crash")));
	snprintf(copy_path, sizeof(copy_path), "%s/src.bin", copy_dir);
	test_write_file(copy_path, COPY_LEN, COPY_HOLE_OFF, COPY_HOLE_END,
			copy_byte);
	work_srcs[4].host = copy_dir;
	work_srcs[4].is_dir = 1;
	work_srcs[4].mtime = 1500000000;
	work_srcs[5].host = copy_path;
	work_srcs[5].mtime = 1500000000;
}

/* How far a run got before it failed. */
enum stage { ST_OPEN, ST_PLAN, ST_COMMIT, ST_DONE };

/*
 * Do what the command line does with @r on @img (main.c, run()): locate
 * the volume, open it, check its FAT copies (copies that differ only by
 * lost clusters go on), plan, check the copies again and commit.
 * Returns the first error and, in *stage, the step that failed.
 */
static enum fp_err run(struct fp_img *img, const struct fp_req *r, size_t n,
		       enum stage *stage)
{
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1,
				   .parents = 1, .srcs = work_srcs };
	struct fp_locate loc;
	struct fp_fs_diag fd;
	struct fp_plan_diag diag;
	struct fp_plan *plan = NULL;
	struct fp_fs *fs = NULL;
	enum fp_err err;

	*stage = ST_OPEN;
	err = fp_fs_locate(img, 0, &loc);
	if (err == FP_E_NOTFAT && loc.kind == FP_PT_NONE)
		err = FP_OK;	/* a bare volume: fp_fs_open says more */
	if (!err)
		err = fp_img_set_window(img, loc.off, loc.len);
	if (!err)
		err = fp_fs_open(img, &fs);
	if (!err)
		err = fp_fs_check(fs, &fd);
	if (err == FP_E_FATDIFF)
		err = fp_damage_copies(fs, NULL, &fd);
	if (err)
		goto out;
	*stage = ST_PLAN;
	err = fp_plan_build(fs, &o, r, n, &plan, &diag);
	if (!err)
		err = fp_plan_check_copies(plan, &fd);
	if (err)
		goto out;
	*stage = ST_COMMIT;
	err = fp_plan_commit(plan, 0);
	if (!err)
		*stage = ST_DONE;
out:
	fp_plan_free(plan);
	fp_fs_free(fs);
	return err;
}

/*
 * What must survive any failure: the files made by setup(), whose data
 * it overwrites with a pattern, with their clusters and the offset of
 * their directory entries in the image.
 */
struct kept {
	const char *path;
	const char *dir;	/* parent, NULL for the root */
	char sfn[12];
	uint32_t size;
	uint32_t *cls;
	uint32_t cl_count;
	uint64_t ent_off;
};

static struct kept kept[] = {
	{ "/old.bin", NULL, "OLD     BIN", 0, NULL, 0, 0 },
	{ "/keep.bin", NULL, "KEEP    BIN", 0, NULL, 0, 0 },
	{ "/d/a", "/d", "A          ", 0, NULL, 0, 0 },
	{ "/d/n", "/d", "N          ", 0, NULL, 0, 0 },
};
#define KEPT_COUNT (sizeof(kept) / sizeof(kept[0]))

static uint8_t pattern(size_t file, uint64_t pos)
{
	return (uint8_t)(0x41 + (file * 7 + pos) % 26);
}

static uint8_t copy_byte(uint64_t pos)
{
	return pos >= COPY_HOLE_OFF && pos < COPY_HOLE_END ? 0 :
	       pattern(9, pos);
}


/* Image offset of byte @pos of the file whose chain is @cls. */
static uint64_t byte_off(const struct fp_geom *g, const uint32_t *cls,
			 uint64_t pos)
{
	return fp_geom_cl_off(g, cls[pos / g->clus_len]) + pos % g->clus_len;
}

/* The clusters of @path on @fs, in chain order (malloc'd). */
static uint32_t *clusters_of(struct fp_fs *fs, const char *path,
			     uint32_t *count)
{
	struct fp_plan_diag diag;
	struct fp_map m;
	uint32_t *cls, n = 0, c;
	size_t i;

	ck_assert_int_eq(fp_map_load(fs, path, &m, &diag), FP_OK);
	cls = malloc((m.clusters + 1) * sizeof(*cls));
	ck_assert_ptr_nonnull(cls);
	for (i = 0; i < m.ext_count; i++)
		for (c = 0; c < m.ext[i].count; c++)
			cls[n++] = m.ext[i].start + c;
	ck_assert_uint_eq(n, m.clusters);
	*count = n;
	fp_map_release(&m);
	return cls;
}

/* Byte offset of the short entry @sfn in the directory @dir (NULL: root). */
static uint64_t entry_off(struct fp_fs *fs, const uint8_t *d,
			  const char *dir, const char *sfn)
{
	const struct fp_geom *g = fp_fs_geom(fs);
	uint32_t *cls, n = 1, i, e;
	uint64_t off, found = 0;

	if (dir) {
		cls = clusters_of(fs, dir, &n);
	} else {
		cls = malloc(sizeof(*cls));
		ck_assert_ptr_nonnull(cls);
		cls[0] = g->root_cl;
	}
	for (i = 0; i < n; i++)
		for (e = 0; e < g->clus_len / 32; e++) {
			off = fp_geom_cl_off(g, cls[i]) + e * 32;
			if (!memcmp(d + off, sfn, 11)) {
				ck_assert_uint_eq(found, 0);
				found = off;
			}
		}
	free(cls);
	ck_assert_msg(found, "no entry '%s'", sfn);
	return found;
}

/* The copied file reads back as its source, its last cluster's rest 0. */
static void assert_copied(struct fp_img *img)
{
	const uint8_t *d = fp_img_mem_data(img);
	const struct fp_geom *g;
	struct fp_fs *fs;
	uint32_t *cls, n;
	uint64_t pos, end;

	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	g = fp_fs_geom(fs);
	cls = clusters_of(fs, "/copy/Copied data.bin", &n);
	end = (uint64_t)n * g->clus_len;
	ck_assert_uint_ge(end, COPY_LEN);
	for (pos = 0; pos < end; pos++)
		ck_assert_msg(d[byte_off(g, cls, pos)] ==
			      (pos < COPY_LEN ? copy_byte(pos) : 0),
			      "copied byte %llu differs",
			      (unsigned long long)pos);
	free(cls);
	fp_fs_free(fs);
}

/* Overwrite the data of the kept files in @d with their patterns. */
static void keep_files(struct fp_img *img, uint8_t *d)
{
	const struct fp_geom *g;
	struct fp_fs *fs;
	uint64_t pos;
	size_t i;

	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	g = fp_fs_geom(fs);
	for (i = 0; i < KEPT_COUNT; i++) {
		struct kept *k = &kept[i];

		k->cls = clusters_of(fs, k->path, &k->cl_count);
		k->ent_off = entry_off(fs, d, k->dir, k->sfn);
		k->size = fp_le32(d + k->ent_off + 28);
		ck_assert_uint_gt(k->size, 0);
		for (pos = 0; pos < k->size; pos++)
			d[byte_off(g, k->cls, pos)] = pattern(i, pos);
	}
	fp_fs_free(fs);
}

/*
 * The kept files after a failed run: same entry (the extended /old.bin may
 * have its new size and time), same first clusters, same data.
 */
static void assert_kept(struct fp_img *img, unsigned long k, const char *how)
{
	const uint8_t *d = fp_img_mem_data(img);
	const struct fp_geom *g;
	struct fp_fs *fs;
	uint32_t *cls, n, c;
	uint64_t pos;
	size_t i;

	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	g = fp_fs_geom(fs);
	for (i = 0; i < KEPT_COUNT; i++) {
		const struct kept *e = &kept[i];
		const uint8_t *ent = d + e->ent_off, *was = base + e->ent_off;
		int extended = i == 0;

		ck_assert_msg(!memcmp(ent, was, extended ? 12 : 32),
			      "%s, %lu: entry of %s changed", how, k, e->path);
		ck_assert_msg(!memcmp(ent + 20, was + 20, 2) &&
			      !memcmp(ent + 26, was + 26, 2),
			      "%s, %lu: start of %s changed", how, k, e->path);
		cls = clusters_of(fs, e->path, &n);
		ck_assert_msg(extended ? n >= e->cl_count : n == e->cl_count,
			      "%s, %lu: chain of %s is %u clusters", how, k,
			      e->path, n);
		for (c = 0; c < e->cl_count; c++)
			ck_assert_msg(cls[c] == e->cls[c],
				      "%s, %lu: chain of %s changed", how, k,
				      e->path);
		for (pos = 0; pos < e->size; pos++)
			ck_assert_msg(d[byte_off(g, cls, pos)] ==
				      pattern(i, pos),
				      "%s, %lu: data of %s changed at %llu",
				      how, k, e->path, (unsigned long long)pos);
		free(cls);
	}
	fp_fs_free(fs);
}

static void setup(void)
{
	struct fp_req prep[] = {
		{ "/old.bin", 3000 }, { "/keep.bin", 200000 },
		{ "/d/a", 1 }, { "/d/b", 1 }, { "/d/c", 1 }, { "/d/e", 1 },
		{ "/d/f", 1 }, { "/d/g", 1 }, { "/d/h", 1 }, { "/d/i", 1 },
		{ "/d/j", 1 }, { "/d/k", 1 }, { "/d/l", 1 }, { "/d/m", 1 },
		{ "/d/n", 1 },
	};
	struct fp_plan_opts o = { .time = 1, .utc = 1, .parents = 1 };
	struct fp_plan_diag diag;
	struct fp_plan *plan;
	struct fp_img *img;
	struct fp_fs *fs;

	load_mkfs_image(32, 40000);
	make_copy_source();
	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	ck_assert_int_eq(fp_plan_build(fs, &o, prep, 15, &plan, &diag),
			 FP_OK);
	ck_assert_int_eq(fp_plan_commit(plan, 1), FP_OK);
	fp_plan_free(plan);
	fp_fs_free(fs);
	memcpy(base, fp_img_mem_data(img), base_len);
	keep_files(img, base);
	fp_img_close(img);
}

static void teardown(void)
{
	size_t i;

	for (i = 0; i < KEPT_COUNT; i++) {
		free(kept[i].cls);
		kept[i].cls = NULL;
	}
	free(base);
	unlink(copy_path);
	rmdir(copy_dir);
}

/*
 * Only findings a crash may leave: lost clusters and their traces (a chain
 * linked before its entry's size was written, a stale FSInfo count).
 * Returns 1 when the FAT copies differ, which a crash between the copies
 * leaves, and then only by lost clusters (fat-mismatch-lost, never
 * fat-mismatch); the caller then checks each copy on its own.
 */
static int check_findings(struct fp_img *img, const char *how,
			  unsigned long k, int copy)
{
	struct fp_report *r;
	int mismatch = 0;
	size_t i;

	ck_assert_int_eq(fp_verify(img, &r), FP_OK);
	for (i = 0; i < fp_report_finding_count(r); i++) {
		enum fp_problem p = fp_report_finding(r, i)->problem;

		if (p == FP_P_FAT_MISMATCH_LOST && copy < 0) {
			mismatch = 1;
			continue;
		}
		ck_assert_msg(p == FP_P_LOST || p == FP_P_TAIL ||
			      p == FP_P_FSINFO_FREE ||
			      (label_cut && p == FP_P_BOOT_BACKUP_LABEL),
			      "%s at call %lu (FAT copy %d): %s at '%s'", how,
			      k, copy, fp_problem_code(p),
			      fp_report_finding(r, i)->path);
	}
	fp_report_free(r);
	return mismatch;
}

/* The image as a checker would see it if FAT copy @copy were the only one. */
static void check_copy(struct fp_img *img, const char *how, unsigned long k,
		       int copy)
{
	const uint8_t *d = fp_img_mem_data(img);
	struct fp_img *one;
	struct fp_fs *fs;
	struct fp_geom g;
	uint32_t c;

	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	g = *fp_fs_geom(fs);
	fp_fs_free(fs);
	ck_assert_int_eq(fp_img_mem(d, base_len, &one), FP_OK);
	for (c = 0; c < g.fat_count; c++)
		ck_assert_int_eq(fp_img_write(one, g.fat_off + c * g.fat_len,
					      d + g.fat_off + copy * g.fat_len,
					      g.fat_len), FP_OK);
	check_findings(one, how, k, copy);
	fp_img_close(one);
}

static void assert_sound(struct fp_img *img, const char *how,
			 unsigned long k)
{
	if (check_findings(img, how, k, -1)) {
		check_copy(img, how, k, 0);
		check_copy(img, how, k, 1);
	}
	assert_kept(img, k, how);
}

/*
 * The run after a cut one: a new file is written (faults off), the FAT
 * copies are equal again and the image holds nothing a crash may not
 * leave.  Returns 1 if the copies differed before.
 */
static int assert_next_run(struct fp_img *img, const char *how,
			   unsigned long k)
{
	static const struct fp_req next[] = { { "/next.bin", 7000 } };
	const uint8_t *d = fp_img_mem_data(img);
	struct fp_geom g;
	struct fp_fs *fs;
	enum stage st;
	enum fp_err err;
	int differed;

	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	g = *fp_fs_geom(fs);
	fp_fs_free(fs);
	differed = memcmp(d + g.fat_off, d + g.fat_off + g.fat_len,
			  g.fat_len) != 0;
	fp_img_fault(img, FP_IMG_FAULT_NONE, 0, 0);
	err = run(img, next, 1, &st);
	ck_assert_msg(err == FP_OK, "%s at call %lu: the next run: %s", how,
		      k, fp_strerror(err));
	ck_assert_msg(!memcmp(d + g.fat_off, d + g.fat_off + g.fat_len,
			      g.fat_len),
		      "%s at call %lu: FAT copies differ after the next run",
		      how, k);
	ck_assert_int_eq(check_findings(img, how, k, -1), 0);
	if (kept[0].cls)	/* setup() made them */
		assert_kept(img, k, how);
	return differed;
}

/* The requests whose run is cut short; the last two are a copy. */
static const struct fp_req work[] = {
	{ "/old.bin", 300000 },			/* extend: a link */
	{ "/d/A long name that needs slots.bin", 200000 },	/* grows d */
	{ "/new.bin", 100000 },
	{ "/e/f/deep.bin", 5000 },		/* two new directories */
	{ "/copy", 0 },				/* a copied directory */
	{ "/copy/Copied data.bin", COPY_LEN },	/* and its file */
};
#define WORK_COUNT (sizeof(work) / sizeof(work[0]))

/* The fault kinds, each injected at every call it can hit. */
static const struct fault {
	const char *name;
	enum fp_img_fault kind;
	int errnum;
} faults[] = {
	{ "write EIO", FP_IMG_FAULT_WRITE, EIO },
	{ "write ENOSPC", FP_IMG_FAULT_WRITE, ENOSPC },
	{ "short write", FP_IMG_FAULT_SHORT, ENOSPC },
	{ "read EIO", FP_IMG_FAULT_READ, EIO },
};
#define FAULT_COUNT (sizeof(faults) / sizeof(faults[0]))

/*
 * The faults themselves, on a small memory image: which call fails, what
 * a short write leaves, and that a failed read is a single event.
 */
START_TEST(test_fault_kinds)
{
	uint8_t zero[4096] = { 0 }, ones[2048], buf[16];
	const uint8_t *d;
	struct fp_img *img;

	memset(ones, 0xFF, sizeof(ones));
	ck_assert_int_eq(fp_img_mem(zero, sizeof(zero), &img), FP_OK);
	d = fp_img_mem_data(img);

	/* write 2 writes its first 1024 of 2048 bytes, then ENOSPC */
	fp_img_fault(img, FP_IMG_FAULT_SHORT, 2, ENOSPC);
	ck_assert_int_eq(fp_img_write(img, 0, ones, 16), FP_OK);
	ck_assert_int_eq(fp_img_write(img, 2048, ones, 2048), FP_E_IO);
	ck_assert_int_eq(fp_img_errno(img), ENOSPC);
	ck_assert_mem_eq(d + 2048, ones, 1024);
	ck_assert_mem_eq(d + 3072, zero, 1024);
	/* then the device stays full; a short zero-fill writes nothing */
	ck_assert_int_eq(fp_img_write(img, 16, ones, 16), FP_E_IO);
	ck_assert_mem_eq(d + 16, zero, 16);
	ck_assert_uint_eq(fp_img_write_count(img), 1);
	fp_img_fault(img, FP_IMG_FAULT_SHORT, 2, ENOSPC);
	ck_assert_int_eq(fp_img_zero(img, 2048, 512), FP_E_IO);
	ck_assert_mem_eq(d + 2048, ones, 512);

	/* read 2 fails with EIO, read 3 works again; writes are not hit */
	fp_img_fault(img, FP_IMG_FAULT_READ, fp_img_read_count(img) + 2,
		     EIO);
	ck_assert_int_eq(fp_img_read(img, 0, buf, 16), FP_OK);
	ck_assert_int_eq(fp_img_read(img, 0, buf, 16), FP_E_IO);
	ck_assert_int_eq(fp_img_errno(img), EIO);
	ck_assert_int_eq(fp_img_read(img, 0, buf, 16), FP_OK);
	ck_assert_mem_eq(buf, ones, 16);
	ck_assert_int_eq(fp_img_zero(img, 0, 16), FP_OK);
	ck_assert_uint_eq(fp_img_read_count(img), 3);

	/* k == 0 turns faults off */
	fp_img_fault(img, FP_IMG_FAULT_WRITE, 0, EIO);
	ck_assert_int_eq(fp_img_write(img, 0, ones, 16), FP_OK);
	fp_img_close(img);
}
END_TEST

/*
 * The whole run without faults, then the same run with the fault at every
 * call from the first to the last.  Each must fail with that errno (the
 * command line says "cannot read/write ... : strerror" and exits 8), and
 * leave an image with only lost clusters, tails and a stale FSInfo count,
 * where the files that were there keep their entries and data.  A failed
 * read before the commit must leave the image as it was.
 */
START_TEST(test_fault_at_every_call)
{
	const struct fault *f = &faults[_i];
	int reads = f->kind == FP_IMG_FAULT_READ;
	unsigned long total, k, before_commit = 0, differed = 0;
	struct fp_img *img;
	enum stage st;
	enum fp_err err;

	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	ck_assert_int_eq(run(img, work, WORK_COUNT, &st), FP_OK);
	total = reads ? fp_img_read_count(img) : fp_img_write_count(img);
	assert_sound(img, "no fault", 0);
	assert_copied(img);
	fp_img_close(img);
	ck_assert_uint_ge(total, 6);
	for (k = 1; k <= total; k++) {
		ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
		fp_img_fault(img, f->kind, k, f->errnum);
		err = run(img, work, WORK_COUNT, &st);
		ck_assert_msg(err == FP_E_IO, "%s at call %lu: %s", f->name,
			      k, fp_strerror(err));
		ck_assert_int_eq(fp_img_errno(img), f->errnum);
		if (st < ST_COMMIT) {
			ck_assert_msg(!memcmp(fp_img_mem_data(img), base,
					      base_len),
				      "%s at call %lu: image written", f->name,
				      k);
			before_commit++;
		} else {
			assert_sound(img, f->name, k);
			differed += assert_next_run(img, f->name, k);
		}
		fp_img_close(img);
	}
	if (!reads) {
		ck_assert_uint_eq(before_commit, 0);
		ck_assert_uint_gt(differed, 0);
	}
	printf("check_crash: %s: %lu faults injected (%lu before the "
	       "commit, %lu with FAT copies that differ)\n", f->name, total,
	       before_commit, differed);
	fflush(stdout);
}
END_TEST

/* Plan and commit @r on @img with options @o; the first error. */
static enum fp_err plan_run(struct fp_img *img, const struct fp_plan_opts *o,
			    const struct fp_req *r, size_t n)
{
	struct fp_plan_diag diag;
	struct fp_plan *plan = NULL;
	struct fp_fs *fs = NULL;
	enum fp_err err;

	err = fp_fs_open(img, &fs);
	if (!err)
		err = fp_plan_build(fs, o, r, n, &plan, &diag);
	if (!err)
		err = fp_plan_commit(plan, 1);
	fp_plan_free(plan);
	fp_fs_free(fs);
	return err;
}

/* The raw FAT32 entry of @cl in FAT copy @copy of @d. */
static uint32_t raw32(const uint8_t *d, const struct fp_geom *g,
		      uint32_t copy, uint32_t cl)
{
	return fp_le32(d + g->fat_off + (uint64_t)copy * g->fat_len +
		       (uint64_t)cl * 4);
}

/*
 * The root grows: the end of its chain, 0x0FFFFFF8 as mkfs.fat writes
 * it, is linked to a new cluster.  Cut at every write, each FAT copy
 * holds there either those very bytes or the link, never another
 * end-of-chain value.
 */
START_TEST(test_old_chain_end_kept)
{
	static const struct fp_req grow_root[] = {
		{ "/The first long name of three, in four slots.bin", 1 },
		{ "/The second long name of three, in four slots.bin", 1 },
		{ "/The third long name of three, in four slots.bin", 1 },
	};
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1 };
	unsigned long total, k;
	struct fp_img *img;
	struct fp_fs *fs;
	struct fp_geom g;
	const uint8_t *d;
	uint32_t root, next, v, c;

	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	g = *fp_fs_geom(fs);
	fp_fs_free(fs);
	root = g.root_cl;
	ck_assert_uint_eq(raw32(base, &g, 0, root), 0x0FFFFFF8);
	ck_assert_int_eq(plan_run(img, &o, grow_root, 3), FP_OK);
	next = raw32(fp_img_mem_data(img), &g, 0, root) & 0x0FFFFFFF;
	ck_assert_uint_ge(next, 2);
	ck_assert_uint_lt(next, 0x0FFFFFF0);
	total = fp_img_write_count(img);
	fp_img_close(img);
	for (k = 1; k <= total; k++) {
		ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
		fp_img_fault(img, FP_IMG_FAULT_WRITE, k, EIO);
		ck_assert_int_eq(plan_run(img, &o, grow_root, 3), FP_E_IO);
		d = fp_img_mem_data(img);
		for (c = 0; c < g.fat_count; c++) {
			v = raw32(d, &g, c, root);
			ck_assert_msg(v == 0x0FFFFFF8 || v == next,
				      "write %lu, FAT %u: root end 0x%08X", k,
				      c, v);
		}
		fp_img_close(img);
	}
}
END_TEST

/* The bytes of @img (malloc'd), which is closed. */
static uint8_t *image_copy(struct fp_img *img)
{
	uint8_t *d = malloc(base_len);

	ck_assert_ptr_nonnull(d);
	memcpy(d, fp_img_mem_data(img), base_len);
	fp_img_close(img);
	return d;
}

/*
 * Directory /g, fragmented: its first cluster is full, a file's cluster
 * lies between it and its second, and the last 3 slots of the first and
 * the first of the second are deleted entries.  *c1 and *c2 are its
 * clusters.
 */
static void make_fragmented(struct fp_img *img, uint32_t *c1, uint32_t *c2)
{
	static const struct fp_req r[] = {
		{ "/g/x01", 0 }, { "/spacer.bin", 1 },
	}, r2[] = {
		{ "/g/x02", 0 }, { "/g/x03", 0 }, { "/g/x04", 0 }, { "/g/x05", 0 },
		{ "/g/x06", 0 }, { "/g/x07", 0 }, { "/g/x08", 0 },
		{ "/g/x09", 0 }, { "/g/x10", 0 }, { "/g/x11", 0 },
		{ "/g/x12", 0 }, { "/g/x13", 0 }, { "/g/x14", 0 },
		{ "/g/x15", 0 },
	};
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1,
				   .parents = 1 };
	uint8_t del = FP_DIRENT_FREE;
	const struct fp_geom *g;
	struct fp_fs *fs;
	uint32_t *cls, n, s;

	/* Two runs: a plan gives a directory it makes all its clusters. */
	ck_assert_int_eq(plan_run(img, &o, r, 2), FP_OK);
	ck_assert_int_eq(plan_run(img, &o, r2, 14), FP_OK);
	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	g = fp_fs_geom(fs);
	ck_assert_uint_eq(g->clus_len, 16 * 32);
	cls = clusters_of(fs, "/g", &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_ne(cls[1], cls[0] + 1);
	*c1 = cls[0];
	*c2 = cls[1];
	for (s = 13; s <= 16; s++)
		ck_assert_int_eq(fp_img_write(img, fp_geom_cl_off(g,
					      cls[s / 16]) + s % 16 * 32,
					      &del, 1), FP_OK);
	free(cls);
	fp_fs_free(fs);
}

/*
 * A set of 4 slots for /g fits the free run from slot 13 only across
 * the two clusters, which are written separately: it must go into the
 * second cluster, and a run cut at any write must leave no half set.
 */
START_TEST(test_set_in_one_cluster)
{
	static const struct fp_req r[] = {
		{ "/g/A name of four slots, in one.bin", 0 },
	};
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1 };
	unsigned long total, k;
	struct fp_img *img;
	uint8_t *frag;
	struct fp_fs *fs;
	const uint8_t *d;
	uint32_t c1, c2;

	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	make_fragmented(img, &c1, &c2);
	frag = image_copy(img);
	ck_assert_int_eq(fp_img_mem(frag, base_len, &img), FP_OK);
	ck_assert_int_eq(plan_run(img, &o, r, 1), FP_OK);
	total = fp_img_write_count(img);
	d = fp_img_mem_data(img);
	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	ck_assert_uint_eq(d[fp_geom_cl_off(fp_fs_geom(fs), c1) + 13 * 32],
			  FP_DIRENT_FREE);
	ck_assert_uint_eq(d[fp_geom_cl_off(fp_fs_geom(fs), c2) + DIR_ATTR],
			  FP_ATTR_LFN);
	fp_fs_free(fs);
	check_findings(img, "no fault", 0, -1);
	fp_img_close(img);
	for (k = 1; k <= total; k++) {
		ck_assert_int_eq(fp_img_mem(frag, base_len, &img), FP_OK);
		fp_img_fault(img, FP_IMG_FAULT_WRITE, k, EIO);
		ck_assert_int_eq(plan_run(img, &o, r, 1), FP_E_IO);
		check_findings(img, "fragmented directory", k, -1);
		fp_img_close(img);
	}
	free(frag);
}
END_TEST

/*
 * --trim of two keep-size tails, one of a file that keeps no cluster, cut
 * at every write: only what a crash may leave, and the kept files whole.
 */
START_TEST(test_trim_cut_anywhere)
{
	static const struct fp_req tails[] = {
		{ "/old.bin", 300000 }, { "/tail.bin", 70000 },
	};
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1,
				   .keep_size = 1 };
	struct fp_plan_opts t = { .time = 1700000000, .utc = 1, .trim = 1 };
	unsigned long total, k, differed = 0;
	struct fp_img *img;
	uint8_t *with;

	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	ck_assert_int_eq(plan_run(img, &o, tails, 2), FP_OK);
	with = image_copy(img);
	ck_assert_int_eq(fp_img_mem(with, base_len, &img), FP_OK);
	ck_assert_int_eq(plan_run(img, &t, tails, 2), FP_OK);
	total = fp_img_write_count(img);
	ck_assert_uint_ge(total, 3);
	assert_sound(img, "trim", 0);
	fp_img_close(img);
	for (k = 1; k <= total; k++) {
		ck_assert_int_eq(fp_img_mem(with, base_len, &img), FP_OK);
		fp_img_fault(img, FP_IMG_FAULT_WRITE, k, EIO);
		ck_assert_int_eq(plan_run(img, &t, tails, 2), FP_E_IO);
		assert_sound(img, "trim", k);
		differed += assert_next_run(img, "trim", k);
		fp_img_close(img);
	}
	ck_assert_uint_gt(differed, 0);
	free(with);
}
END_TEST

/* The files that an rm plan removes, each with its pattern and chain. */
static const char *const doomed[] = {
	"/gone.bin", "/t/w.bin", "/t/u/v.bin",
	"/t/A long name that needs four slots.bin", "/d/b",
};
#define DOOMED_COUNT (sizeof(doomed) / sizeof(doomed[0]))

/*
 * Fill the doomed files of @d (the bytes of @img) with their patterns
 * (files 20 and on), or check that each that @img still holds reads as
 * it did (@check): whole, with the chain *@cls it had.
 */
static void doomed_data(struct fp_img *img, uint8_t *d, int check,
			uint32_t **cls, uint32_t *counts, unsigned long k)
{
	const struct fp_geom *g;
	struct fp_plan_diag diag;
	struct fp_fs *fs;
	struct fp_map m;
	uint32_t *c, n, i;
	uint64_t pos;
	size_t f;

	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	g = fp_fs_geom(fs);
	for (f = 0; f < DOOMED_COUNT; f++) {
		if (check && fp_map_load(fs, doomed[f], &m, &diag) != FP_OK)
			continue;	/* removed */
		if (check)
			fp_map_release(&m);
		c = clusters_of(fs, doomed[f], &n);
		if (!check) {
			cls[f] = c;
			counts[f] = n;
		}
		for (i = 0; check && i < n; i++)
			ck_assert_msg(n == counts[f] && c[i] == cls[f][i],
				      "rm, %lu: chain of %s changed", k,
				      doomed[f]);
		for (pos = 0; pos < (uint64_t)n * g->clus_len; pos++) {
			uint8_t *b = d + byte_off(g, c, pos);

			if (!check)
				*b = pattern(20 + f, pos);
			else
				ck_assert_msg(*b == pattern(20 + f, pos),
					      "rm, %lu: data of %s changed", k,
					      doomed[f]);
		}
		if (check)
			free(c);
	}
	fp_fs_free(fs);
}

/*
 * rm -r of a tree (with a long name in it), rm of files (one in the
 * directory of kept files), mkdir -p and a new file, in one plan cut at
 * every write: only what a crash may leave (lost clusters), the kept
 * files whole, and each removed file either gone or whole, as it was.
 */
START_TEST(test_rm_cut_anywhere)
{
	static const struct fp_req prep[] = {
		{ "/gone.bin", 40000 }, { "/t/w.bin", 5000 },
		{ "/t/u/v.bin", 60000 },
		{ "/t/A long name that needs four slots.bin", 700 },
		{ "/d/b", 1 },
	};
	static const struct fp_req r[] = {
		{ "/t", 0 }, { "/gone.bin", 0 }, { "/d/b", 0 },
		{ "/m/n", 0 }, { "/after.bin", 20000 },
	};
	static const struct fp_req_edit ed[] = {
		{ FP_REQ_RM, FP_EDIT_RECURSIVE, NULL, 0, 0 },
		{ FP_REQ_RM, 0, NULL, 0, 0 },
		{ FP_REQ_RM, 0, NULL, 0, 0 },
		{ FP_REQ_MKDIR, FP_EDIT_PARENTS, NULL, 0, 0 },
		{ FP_REQ_FILE, 0, NULL, 0, 0 },
	};
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1,
				   .parents = 1 };
	struct fp_plan_opts e = { .time = 1700000000, .utc = 1, .edits = ed };
	uint32_t *cls[DOOMED_COUNT], counts[DOOMED_COUNT];
	unsigned long total, k, differed = 0;
	struct fp_img *img;
	uint8_t *with;
	size_t f;

	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	ck_assert_int_eq(plan_run(img, &o, prep, 5), FP_OK);
	with = image_copy(img);
	ck_assert_int_eq(fp_img_mem(with, base_len, &img), FP_OK);
	doomed_data(img, with, 0, cls, counts, 0);
	fp_img_close(img);
	ck_assert_int_eq(fp_img_mem(with, base_len, &img), FP_OK);
	ck_assert_int_eq(plan_run(img, &e, r, 5), FP_OK);
	total = fp_img_write_count(img);
	ck_assert_uint_ge(total, 5);
	assert_sound(img, "rm", 0);
	ck_assert_int_eq(check_findings(img, "rm", 0, -1), 0);
	fp_img_close(img);
	for (k = 1; k <= total; k++) {
		ck_assert_int_eq(fp_img_mem(with, base_len, &img), FP_OK);
		fp_img_fault(img, FP_IMG_FAULT_WRITE, k, EIO);
		ck_assert_int_eq(plan_run(img, &e, r, 5), FP_E_IO);
		assert_sound(img, "rm", k);
		doomed_data(img, (uint8_t *)fp_img_mem_data(img), 1, cls,
			    counts, k);
		differed += assert_next_run(img, "rm", k);
		fp_img_close(img);
	}
	ck_assert_uint_gt(differed, 0);
	for (f = 0; f < DOOMED_COUNT; f++)
		free(cls[f]);
	free(with);
}
END_TEST

/*
 * An attribute edit beside a new file and an extension, cut at every
 * write: the kept files whole, only what a crash may leave, and the
 * edited entry holds its old attributes or its new ones, nothing else of
 * it changed (its sector is one write, after the new file's data and FAT).
 */
START_TEST(test_attr_cut_anywhere)
{
	static const struct fp_req r[] = {
		{ "/fresh.bin", 70000 }, { "/d/b", 0 }, { "/d/c", 0 },
	};
	static const struct fp_req_edit ed[] = {
		{ FP_REQ_FILE, 0, NULL, 0, 0 },
		{ FP_REQ_ATTR, 0, NULL, FP_ATTR_RO | FP_ATTR_HIDDEN |
		  FP_ATTR_SYSTEM, FP_ATTR_ARCHIVE },
		{ FP_REQ_ATTR, 0, NULL, FP_ATTR_HIDDEN, 0 },
	};
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1, .edits = ed };
	static const uint8_t want[2] = { 0x07, 0x22 };
	unsigned long total, k, seen_old = 0, seen_new = 0;
	struct fp_img *img;
	struct fp_fs *fs;
	const uint8_t *d;
	uint64_t off[2];
	size_t i;

	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	off[0] = entry_off(fs, base, "/d", "B          ");
	off[1] = entry_off(fs, base, "/d", "C          ");
	fp_fs_free(fs);
	ck_assert_int_eq(plan_run(img, &o, r, 3), FP_OK);
	total = fp_img_write_count(img);
	d = fp_img_mem_data(img);
	for (i = 0; i < 2; i++) {
		ck_assert_uint_eq(d[off[i] + DIR_ATTR], want[i]);
		ck_assert(!memcmp(d + off[i], base + off[i], DIR_ATTR));
		ck_assert(!memcmp(d + off[i] + 12, base + off[i] + 12, 20));
	}
	assert_sound(img, "attr", 0);
	fp_img_close(img);
	for (k = 1; k <= total; k++) {
		ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
		fp_img_fault(img, FP_IMG_FAULT_WRITE, k, EIO);
		ck_assert_int_eq(plan_run(img, &o, r, 3), FP_E_IO);
		assert_sound(img, "attr", k);
		d = fp_img_mem_data(img);
		for (i = 0; i < 2; i++) {
			ck_assert_msg(d[off[i] + DIR_ATTR] == base[off[i] +
				      DIR_ATTR] || d[off[i] + DIR_ATTR] ==
				      want[i], "write %lu: attribute 0x%02x", k,
				      d[off[i] + DIR_ATTR]);
			ck_assert(!memcmp(d + off[i], base + off[i],
					  DIR_ATTR));
			ck_assert(!memcmp(d + off[i] + 12, base + off[i] + 12,
					  20));
		}
		if (d[off[0] + DIR_ATTR] == want[0])
			seen_new++;
		else
			seen_old++;
		fp_img_close(img);
	}
	ck_assert_uint_gt(seen_old, 0);
	ck_assert_uint_gt(seen_new, 0);
}
END_TEST

/* The label of @img as blkid and mlabel read it, "" for none. */
static void label_of(struct fp_img *img, char out[12])
{
	struct fp_fs *fs;
	uint8_t lab[11];
	int found;

	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	ck_assert_int_eq(fp_edit_label_read(fs, lab, &found), FP_OK);
	memcpy(out, found ? (const char *)lab : "", found ? 11 : 1);
	out[11] = '\0';
	fp_fs_free(fs);
}

/*
 * A label made (the volume has none: an entry in the root, BS_VolLab of
 * sector 0 and of the backup) beside a new file and an extension, cut at
 * every write: the kept files whole, no label mismatch, only lost
 * clusters and a backup whose label lags; the label reads as none or as
 * the new one.
 */
START_TEST(test_label_cut_anywhere)
{
	static const struct fp_req r[] = {
		{ "/fresh.bin", 70000 }, { "/", 0 },
	};
	static const struct fp_req_edit ed[] = {
		{ FP_REQ_FILE, 0, NULL, 0, 0 },
		{ FP_REQ_LABEL, 0, "Crash Test", 0, 0 },
	};
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1, .edits = ed };
	unsigned long total, k, seen[2] = { 0, 0 };
	struct fp_img *img;
	char got[12];

	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	label_of(img, got);
	ck_assert_str_eq(got, "");
	ck_assert_int_eq(plan_run(img, &o, r, 2), FP_OK);
	total = fp_img_write_count(img);
	label_of(img, got);
	ck_assert_str_eq(got, "Crash Test ");
	assert_sound(img, "label", 0);
	fp_img_close(img);
	label_cut = 1;
	for (k = 1; k <= total; k++) {
		ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
		fp_img_fault(img, FP_IMG_FAULT_WRITE, k, EIO);
		ck_assert_int_eq(plan_run(img, &o, r, 2), FP_E_IO);
		assert_sound(img, "label", k);
		label_of(img, got);
		ck_assert_msg(!strcmp(got, "") || !strcmp(got, "Crash Test "),
			      "write %lu: label '%s'", k, got);
		seen[*got != '\0']++;
		fp_img_close(img);
	}
	label_cut = 0;
	ck_assert_uint_gt(seen[0], 0);
	ck_assert_uint_gt(seen[1], 0);
}
END_TEST

/*
 * Findings of a FAT12/16 label change cut at write @k: boot-label-held
 * exactly while sector 0's signature (byte 38) reads 0x28 with "FAT" at
 * byte 54 (the raw bytes, not the decoder's label_held), and nothing
 * else.  1 if held.
 */
static int check_label_held(struct fp_img *img, const char *how,
			    unsigned long k)
{
	const uint8_t *d = fp_img_mem_data(img);
	int want = d[38] == 0x28 && !memcmp(d + 54, "FAT", 3), held = 0;
	struct fp_report *r;
	size_t i;

	ck_assert_int_eq(fp_verify(img, &r), FP_OK);
	for (i = 0; i < fp_report_finding_count(r); i++) {
		enum fp_problem p = fp_report_finding(r, i)->problem;

		held += p == FP_P_LABEL_HELD;
		ck_assert_msg(p == FP_P_LABEL_HELD, "%s at write %lu: %s", how,
			      k, fp_problem_code(p));
	}
	ck_assert_msg(held == want, "%s at write %lu: boot-label-held %d "
		      "times, signature %02x", how, k, held, d[38]);
	fp_report_free(r);
	return held;
}

/*
 * On FAT12 and FAT16 a label made, changed (a long one with punctuation)
 * and removed, each cut at every write: --verify names the state between
 * the writes (boot-label-held) exactly when sector 0 is in it, and
 * nothing else; the label reads as the old or the new one; every change
 * meets that state.
 */
START_TEST(test_label_cut_fat1x)
{
	static const unsigned spec[][2] = { { 12, 2000 }, { 16, 20000 } };
	static const char *const names[] = { "Crash Test", "A-B_C!#$%&(",
					     "" };
	static const struct fp_req r[] = { { "/", 0 } };
	struct fp_req_edit ed = { FP_REQ_LABEL, 0, NULL, 0, 0 };
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1, .edits = &ed };
	unsigned long total, k, held;
	struct fp_img *img;
	char how[48], old[12], want[12], got[12];
	uint8_t *after;
	size_t n;

	load_mkfs_image(spec[_i][0], spec[_i][1]);
	for (n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
		snprintf(how, sizeof(how), "FAT%u label '%s'", spec[_i][0],
			 names[n]);
		ed.to = names[n];
		ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
		label_of(img, old);
		ck_assert_int_eq(plan_run(img, &o, r, 1), FP_OK);
		total = fp_img_write_count(img);
		label_of(img, want);
		ck_assert_int_eq(check_label_held(img, how, 0), 0);
		after = malloc(base_len);
		ck_assert_ptr_nonnull(after);
		memcpy(after, fp_img_mem_data(img), base_len);
		fp_img_close(img);
		for (k = 1, held = 0; k <= total; k++) {
			ck_assert_int_eq(fp_img_mem(base, base_len, &img),
					 FP_OK);
			fp_img_fault(img, FP_IMG_FAULT_WRITE, k, EIO);
			ck_assert_int_eq(plan_run(img, &o, r, 1), FP_E_IO);
			fp_img_fault(img, FP_IMG_FAULT_NONE, 0, 0);
			held += check_label_held(img, how, k);
			label_of(img, got);
			ck_assert_msg(!strcmp(got, old) || !strcmp(got, want),
				      "%s at write %lu: label '%s'", how, k,
				      got);
			fp_img_close(img);
		}
		ck_assert_uint_gt(held, 0);
		free(base);
		base = after;
	}
	free(base);
	base = NULL;
}
END_TEST

/*
 * On FAT12, FAT16 and FAT32, a run whose FAT writes span several sectors
 * (a chain of 2,500 clusters, a directory made), cut by a short write,
 * which writes the first half of its sectors, at every write: the FAT
 * copies differ at most by lost clusters, and the next run makes them
 * equal.  On FAT12 an entry can straddle the two sectors where the
 * write stops.
 */
START_TEST(test_short_write_each_type)
{
	static const unsigned spec[][2] = { { 12, 2000 }, { 16, 20000 },
					    { 32, 40000 } };
	static const struct fp_req r[] = {
		{ "/big.bin", 2500 * 512 }, { "/d/small.bin", 5000 },
	};
	unsigned long total, k, differed = 0;
	struct fp_img *img;
	enum stage st;
	char how[32];

	load_mkfs_image(spec[_i][0], spec[_i][1]);
	snprintf(how, sizeof(how), "FAT%u short write", spec[_i][0]);
	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	ck_assert_int_eq(run(img, r, 2, &st), FP_OK);
	total = fp_img_write_count(img);
	ck_assert_int_eq(check_findings(img, how, 0, -1), 0);
	fp_img_close(img);
	for (k = 1; k <= total; k++) {
		ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
		fp_img_fault(img, FP_IMG_FAULT_SHORT, k, ENOSPC);
		ck_assert_int_eq(run(img, r, 2, &st), FP_E_IO);
		if (check_findings(img, how, k, -1)) {
			check_copy(img, how, k, 0);
			check_copy(img, how, k, 1);
		}
		differed += assert_next_run(img, how, k);
		fp_img_close(img);
	}
	ck_assert_uint_gt(differed, 0);
	free(base);
	base = NULL;
}
END_TEST

/* ---- edits of issue 29: --replace and --mv --------------------------- */

#define EDIT_OLD_LEN 5000u	/* the old data: pattern(20, pos) */
#define EDIT_NEW_LEN 9000u	/* the new data: pattern(21, pos) */
static uint8_t edit_old[EDIT_OLD_LEN], edit_new[EDIT_NEW_LEN];

/*
 * Whether @path reads on @img as @len bytes of @data: 1, 0 if it reads
 * otherwise, -1 if it is not there.
 */
static int reads_as(struct fp_img *img, const char *path,
		    const uint8_t *data, uint32_t len)
{
	const uint8_t *d = fp_img_mem_data(img);
	struct fp_plan_diag diag;
	struct fp_map m;
	struct fp_fs *fs;
	uint32_t *cls, n;
	uint64_t pos;
	int ok;

	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	if (fp_map_load(fs, path, &m, &diag)) {
		fp_fs_free(fs);
		return -1;
	}
	ok = m.size == len;
	fp_map_release(&m);
	cls = ok ? clusters_of(fs, path, &n) : NULL;
	for (pos = 0; ok && pos < len; pos++)
		ok = d[byte_off(fp_fs_geom(fs), cls, pos)] == data[pos];
	free(cls);
	fp_fs_free(fs);
	return ok;
}

/*
 * The findings an edit cut short may leave besides a crash's (lost
 * clusters and their traces): with @moved, the documented state of a move
 * between its writes, moved-twice, and a moved directory's ".." already
 * pointing at its new parent (dot-entry, only beside moved-twice).
 */
static void check_edit_findings(struct fp_img *img, const char *how,
				unsigned long k, int moved)
{
	struct fp_report *r;
	int twice = 0, dot = 0;
	size_t i;

	ck_assert_int_eq(fp_verify(img, &r), FP_OK);
	for (i = 0; i < fp_report_finding_count(r); i++) {
		enum fp_problem p = fp_report_finding(r, i)->problem;

		twice |= p == FP_P_MOVED_TWICE;
		dot |= p == FP_P_DOT;
		ck_assert_msg(p == FP_P_LOST || p == FP_P_TAIL ||
			      p == FP_P_FSINFO_FREE ||
			      p == FP_P_FAT_MISMATCH_LOST ||
			      (moved && (p == FP_P_MOVED_TWICE ||
					 p == FP_P_DOT)),
			      "%s at write %lu: %s at '%s'", how, k,
			      fp_problem_code(p),
			      fp_report_finding(r, i)->path);
	}
	ck_assert_msg(!dot || twice, "%s at write %lu: dot-entry alone", how,
		      k);
	fp_report_free(r);
}

/* Plan @n requests with edits @ed (and sources @src) on @img, commit. */
static enum fp_err edit_run(struct fp_img *img, const struct fp_req *r,
			    const struct fp_req_src *src,
			    const struct fp_req_edit *ed, size_t n)
{
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1, .parents = 1,
				   .srcs = src, .edits = ed };

	return plan_run(img, &o, r, n);
}

/* The image of base with /r.bin (EDIT_OLD_LEN bytes) and /y/, malloc'd. */
static uint8_t *edit_base(void)
{
	static const struct fp_req prep[] = {
		{ "/r.bin", EDIT_OLD_LEN },
		{ "/x/Moved file with a long name.bin", EDIT_OLD_LEN },
		{ "/x/sub/deep.bin", EDIT_OLD_LEN }, { "/y/z", 1 },
	};
	struct fp_req_src s[4] = {
		{ "old", 0, 1, edit_old }, { "old", 0, 1, edit_old },
		{ "old", 0, 1, edit_old }, { NULL, 0, 0, NULL },
	};
	struct fp_img *img;
	uint64_t pos;

	for (pos = 0; pos < EDIT_OLD_LEN; pos++)
		edit_old[pos] = pattern(20, pos);
	for (pos = 0; pos < EDIT_NEW_LEN; pos++)
		edit_new[pos] = pattern(21, pos);
	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	ck_assert_int_eq(edit_run(img, prep, s, NULL, 4), FP_OK);
	return image_copy(img);
}

/*
 * --replace cut at every write: /r.bin reads as its old or its new data,
 * never anything else; the kept files are whole; the next run works.
 */
START_TEST(test_replace_cut_anywhere)
{
	static const struct fp_req r[] = { { "/r.bin", EDIT_NEW_LEN } };
	struct fp_req_src s = { "new", 0, 1700000000, edit_new };
	struct fp_req_edit e = { FP_REQ_FILE, FP_EDIT_REPLACE, NULL, 0, 0 };
	unsigned long total, k, old = 0;
	struct fp_img *img;
	uint8_t *with = edit_base();

	ck_assert_int_eq(fp_img_mem(with, base_len, &img), FP_OK);
	ck_assert_int_eq(edit_run(img, r, &s, &e, 1), FP_OK);
	total = fp_img_write_count(img);
	ck_assert_int_eq(reads_as(img, "/r.bin", edit_new, EDIT_NEW_LEN), 1);
	check_edit_findings(img, "replace", 0, 0);
	fp_img_close(img);
	for (k = 1; k <= total; k++) {
		ck_assert_int_eq(fp_img_mem(with, base_len, &img), FP_OK);
		fp_img_fault(img, FP_IMG_FAULT_WRITE, k, EIO);
		ck_assert_int_eq(edit_run(img, r, &s, &e, 1), FP_E_IO);
		fp_img_fault(img, FP_IMG_FAULT_NONE, 0, 0);
		if (reads_as(img, "/r.bin", edit_old, EDIT_OLD_LEN) == 1)
			old++;
		else
			ck_assert_msg(reads_as(img, "/r.bin", edit_new,
					       EDIT_NEW_LEN) == 1,
				      "replace at write %lu: neither old nor "
				      "new", k);
		check_edit_findings(img, "replace", k, 0);
		assert_kept(img, k, "replace");
		assert_next_run(img, "replace", k);
		fp_img_close(img);
	}
	/* the switch is one write: cut before it, old; after it, new */
	ck_assert_uint_gt(old, 0);
	ck_assert_uint_lt(old, total);
	free(with);
}
END_TEST

/*
 * --mv cut at every write: a file into another directory and a directory
 * with its tree to another parent.  Each is found at its old path or its
 * new one (both in between: moved-twice) with its data; the kept files
 * are whole; the next run works.
 */
START_TEST(test_mv_cut_anywhere)
{
	static const struct fp_req r[] = {
		{ "/x/Moved file with a long name.bin", 0 }, { "/x", 0 },
	};
	static const struct fp_req_edit e[] = {
		{ FP_REQ_MV, 0, "/y/", 0, 0 },
		{ FP_REQ_MV, 0, "/y/Renamed directory", 0, 0 },
	};
	static const struct fp_req next[] = { { "/next.bin", 7000 } };
	unsigned long total, k, both = 0;
	struct fp_img *img;
	uint8_t *with = edit_base();
	int a, b, c, d;

	ck_assert_int_eq(fp_img_mem(with, base_len, &img), FP_OK);
	ck_assert_int_eq(edit_run(img, r, NULL, e, 2), FP_OK);
	total = fp_img_write_count(img);
	ck_assert_uint_ge(total, 3);
	ck_assert_int_eq(reads_as(img, "/y/Moved file with a long name.bin",
				  edit_old, EDIT_OLD_LEN), 1);
	ck_assert_int_eq(reads_as(img, "/y/Renamed directory/sub/deep.bin",
				  edit_old, EDIT_OLD_LEN), 1);
	check_edit_findings(img, "mv", 0, 0);
	fp_img_close(img);
	for (k = 1; k <= total; k++) {
		ck_assert_int_eq(fp_img_mem(with, base_len, &img), FP_OK);
		fp_img_fault(img, FP_IMG_FAULT_WRITE, k, EIO);
		ck_assert_int_eq(edit_run(img, r, NULL, e, 2), FP_E_IO);
		fp_img_fault(img, FP_IMG_FAULT_NONE, 0, 0);
		a = reads_as(img, "/x/Moved file with a long name.bin",
			     edit_old, EDIT_OLD_LEN);
		b = reads_as(img, "/y/Moved file with a long name.bin",
			     edit_old, EDIT_OLD_LEN);
		c = reads_as(img, "/x/sub/deep.bin", edit_old, EDIT_OLD_LEN);
		d = reads_as(img, "/y/Renamed directory/sub/deep.bin",
			     edit_old, EDIT_OLD_LEN);
		ck_assert_msg(a != 0 && b != 0 && c != 0 && d != 0 &&
			      (a == 1 || b == 1) && (c == 1 || d == 1),
			      "mv at write %lu: %d %d %d %d", k, a, b, c, d);
		both += a == 1 && b == 1;
		check_edit_findings(img, "mv", k, 1);
		assert_kept(img, k, "mv");
		ck_assert_int_eq(plan_run(img, &(struct fp_plan_opts){
			.time = 1, .utc = 1 }, next, 1), FP_OK);
		check_edit_findings(img, "mv, next run", k, 1);
		fp_img_close(img);
	}
	/* the state in between was met, and is the documented one */
	ck_assert_uint_gt(both, 0);
	free(with);
}
END_TEST

/* ---- --mirror: removals, replaces and copies in one plan ------------- */

/* A host file @dir/@name of @len bytes of pattern(@file, pos), mtime @t. */
static void host_file(const char *dir, const char *name, size_t file,
		      uint32_t len, int64_t t)
{
	struct timespec ts[2] = { { (time_t)t, 0 }, { (time_t)t, 0 } };
	char path[TEST_TMPL_LEN + 64];
	uint32_t pos;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	for (pos = 0; pos < len; pos++)
		ck_assert_int_ne(fputc(pattern(file, pos), f), EOF);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static void host_dir(const char *dir, const char *name)
{
	char path[TEST_TMPL_LEN + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_int_eq(mkdir(path, 0755), 0);
}

/* Run --mirror @src ::/m on @img as the command line does (main.c). */
static enum fp_err mirror_run(struct fp_img *img, const char *src)
{
	struct fp_reqs *rq = fp_reqs_new();
	struct fp_mirror_diag d;
	struct fp_mirror_stats st;
	struct fp_plan_diag diag;
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1 };
	struct fp_plan *plan = NULL;
	struct fp_fs *fs = NULL;
	enum fp_err err;

	ck_assert_ptr_nonnull(rq);
	memset(&d, 0, sizeof(d));
	err = fp_fs_open(img, &fs);
	if (!err)
		err = fp_mirror_add(rq, fs, src, "/m", NULL, 1, &st, &o.walk,
				    &d);
	fp_list_diag_release(&d.list);
	o.srcs = fp_reqs_srcs(rq);
	o.edits = fp_reqs_edits(rq);
	if (!err)	/* the plan takes the listing's walk */
		err = fp_plan_build(fs, &o, fp_reqs_array(rq),
				    fp_reqs_count(rq), &plan, &diag);
	else
		fp_damage_free(o.walk);
	if (!err)
		err = fp_plan_commit(plan, 1);
	fp_plan_free(plan);
	fp_fs_free(fs);
	fp_reqs_free(rq);
	return err;
}

/* pattern(@file, pos) for @len bytes, in a static buffer. */
static const uint8_t *patterned(size_t file, uint32_t len)
{
	static uint8_t buf[8][EDIT_NEW_LEN];
	uint32_t pos;

	ck_assert_uint_le(len, EDIT_NEW_LEN);
	for (pos = 0; pos < len; pos++)
		buf[file % 8][pos] = pattern(file, pos);
	return buf[file % 8];
}

/*
 * What /m holds: @done 0, as the first mirror made it; 1, as the second
 * should; -1, after a cut second one: each name its old state or its new
 * one, a name that changes kind (a file /m/t becomes a directory) also
 * neither (docs/DESIGN.md, "Mirror").  Returns 1 when all is new.
 */
static int mirror_state(struct fp_img *img, int done, unsigned long k)
{
	int r = reads_as(img, "/m/r.bin", patterned(20, EDIT_OLD_LEN),
			 EDIT_OLD_LEN);
	int rn = reads_as(img, "/m/r.bin", patterned(21, EDIT_NEW_LEN),
			  EDIT_NEW_LEN);
	int same = reads_as(img, "/m/same.bin", patterned(22, 3000), 3000);
	int gone = reads_as(img, "/m/gone.bin", patterned(27, 4000), 4000);
	int g = reads_as(img, "/m/old dir/g.bin", patterned(28, 3000), 3000);
	int nw = reads_as(img, "/m/new.bin", patterned(23, 6000), 6000);
	int f = reads_as(img, "/m/New Dir/f.bin", patterned(24, 2000), 2000);
	int t = reads_as(img, "/m/t", patterned(26, 100), 100) == 1;
	int tin = reads_as(img, "/m/t/in", patterned(25, 100), 100);
	int old = r == 1 && gone == 1 && g == 1 && nw < 0 && f < 0 && t &&
		  tin < 0;
	int new = rn == 1 && gone < 0 && g < 0 && nw == 1 && f == 1 && !t &&
		  tin == 1;

	ck_assert_msg(same == 1, "mirror %lu: same.bin changed", k);
	/* /m/t: the old file, or not a file (gone, or the new directory) */
	ck_assert_msg((r == 1 || rn == 1) && gone != 0 && g != 0 &&
		      nw != 0 && f != 0 && (t ? tin < 0 : tin != 0),
		      "mirror %lu: %d %d %d %d %d %d %d %d", k, r, rn, gone,
		      g, nw, f, t, tin);
	if (done >= 0)
		ck_assert_msg(done ? new : old, "mirror %lu: not %s", k,
			      done ? "new" : "old");
	return new;
}

/*
 * The two trees: a file replaced, one kept, one removed, a directory
 * removed with its file, a file and a directory with a file added, and a
 * file that becomes a directory.
 */
static void mirror_trees(const char *a, const char *b)
{
	host_file(a, "r.bin", 20, EDIT_OLD_LEN, 1500000000);
	host_file(a, "same.bin", 22, 3000, 1600000000);
	host_file(a, "gone.bin", 27, 4000, 1500000000);
	host_dir(a, "old dir");
	host_file(a, "old dir/g.bin", 28, 3000, 1500000000);
	host_file(a, "t", 26, 100, 1500000000);
	host_file(b, "r.bin", 21, EDIT_NEW_LEN, 1600000002);
	host_file(b, "same.bin", 22, 3000, 1600000000);
	host_file(b, "new.bin", 23, 6000, 1600000002);
	host_dir(b, "New Dir");
	host_file(b, "New Dir/f.bin", 24, 2000, 1600000002);
	host_dir(b, "t");
	host_file(b, "t/in", 25, 100, 1600000002);
}

/*
 * --mirror cut at every write: each name of /m reads as its old state or
 * its new one (a name that changes kind: or neither), a file both trees
 * hold alike is never touched, the kept files are whole; the same mirror
 * run again finishes the job, with nothing left but lost clusters.
 */
START_TEST(test_mirror_cut_anywhere)
{
	char a[TEST_TMPL_LEN], b[TEST_TMPL_LEN], cmd[2 * TEST_TMPL_LEN + 16];
	unsigned long total, k, partial = 0;
	struct fp_img *img;
	uint8_t *with;

	ck_assert_ptr_nonnull(mkdtemp(test_tmpl(a, sizeof(a), "mirror_a")));
	ck_assert_ptr_nonnull(mkdtemp(test_tmpl(b, sizeof(b), "mirror_b")));
	mirror_trees(a, b);
	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	ck_assert_int_eq(mirror_run(img, a), FP_OK);
	mirror_state(img, 0, 0);
	with = image_copy(img);
	ck_assert_int_eq(fp_img_mem(with, base_len, &img), FP_OK);
	ck_assert_int_eq(mirror_run(img, b), FP_OK);
	total = fp_img_write_count(img);
	mirror_state(img, 1, 0);
	check_edit_findings(img, "mirror", 0, 0);
	fp_img_close(img);
	for (k = 1; k <= total; k++) {
		ck_assert_int_eq(fp_img_mem(with, base_len, &img), FP_OK);
		fp_img_fault(img, FP_IMG_FAULT_WRITE, k, EIO);
		ck_assert_int_eq(mirror_run(img, b), FP_E_IO);
		fp_img_fault(img, FP_IMG_FAULT_NONE, 0, 0);
		partial += !mirror_state(img, -1, k);
		check_edit_findings(img, "mirror", k, 0);
		assert_kept(img, k, "mirror");
		ck_assert_int_eq(mirror_run(img, b), FP_OK);
		mirror_state(img, 1, k);
		check_edit_findings(img, "mirror, run again", k, 0);
		fp_img_close(img);
	}
	ck_assert_uint_gt(partial, 0);
	free(with);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", a, b);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *crash_suite(void)
{
	Suite *s = suite_create("crash");
	TCase *tc = tcase_create("core");
	TCase *tf = tcase_create("faults");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_fault_at_every_call, 0, FAULT_COUNT);
	tcase_add_test(tc, test_old_chain_end_kept);
	tcase_add_test(tc, test_set_in_one_cluster);
	tcase_add_test(tc, test_trim_cut_anywhere);
	tcase_add_test(tc, test_rm_cut_anywhere);
	tcase_add_test(tc, test_attr_cut_anywhere);
	tcase_add_test(tc, test_label_cut_anywhere);
	tcase_add_test(tc, test_replace_cut_anywhere);
	tcase_add_test(tc, test_mv_cut_anywhere);
	tcase_add_test(tc, test_mirror_cut_anywhere);
	suite_add_tcase(s, tc);
	tcase_add_test(tf, test_fault_kinds);
	tcase_set_timeout(tf, 120);
	tcase_add_loop_test(tf, test_short_write_each_type, 0, 3);
	tcase_add_loop_test(tf, test_label_cut_fat1x, 0, 2);
	suite_add_tcase(s, tf);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(crash_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
