/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_list.c - unit tests for the tree iterator (list.h). */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dir.h"
#include "fs.h"
#include "image.h"
#include "le.h"
#include "list.h"
#include "tmpdir.h"

static char dir[TEST_TMPL_LEN];
static char img[TEST_TMPL_LEN + 16];

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(test_tmpl(dir, sizeof(dir),
						"check_list")));
	snprintf(img, sizeof(img), "%s/disk.img", dir);
	ck_assert_int_eq(setenv("IMG", img, 1), 0);
	ck_assert_int_eq(setenv("MTOOLS_SKIP_CHECK", "1", 1), 0);
}

static void teardown(void)
{
	char cmd[TEST_TMPL_LEN + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Run the shell command @cmd, with the image's path in $IMG. */
static void sh(const char *cmd)
{
	ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

/* Write @len bytes at @off of the image. */
static void poke(uint64_t off, const void *buf, size_t len)
{
	int fd = open(img, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, buf, len, (off_t)off), (ssize_t)len);
	ck_assert_int_eq(close(fd), 0);
}

/* One entry as a test looks at it. */
struct seen {
	char path[256];
	unsigned depth;
	char alias[37];
	uint8_t attr;
	uint32_t size, first_cl, clusters, slot;
	size_t run_count;
	uint32_t run_clusters;	/* the runs' clusters summed */
	uint32_t second_cl;	/* the chain's second cluster, or 0 */
	uint16_t mdate, mtime;
	char hash[FP_SHA256_HEX];	/* files, with hashing asked */
};

/*
 * List @path of the image into @out (at most @max); returns the error of
 * the open or of the listing, *count the entries seen before it.
 */
static enum fp_err list(const char *path, unsigned flags, struct seen *out,
			size_t max, size_t *count, struct fp_list_diag *diag)
{
	uint8_t d[FP_SHA256_LEN];
	const struct fp_list_entry *e;
	struct fp_list *l = NULL;
	struct fp_img *im;
	struct fp_fs *fs;
	enum fp_err err;
	int errnum;
	size_t i;

	*count = 0;
	ck_assert_int_eq(fp_img_open(img, 0, &im, &errnum), FP_OK);
	ck_assert_int_eq(fp_fs_open(im, &fs), FP_OK);
	err = fp_list_open(fs, path, flags, &l, diag);
	while (!err && (err = fp_list_next(l, &e, diag)) == FP_OK && e) {
		ck_assert_uint_lt(*count, max);
		struct seen *s = &out[(*count)++];

		ck_assert_uint_lt(e->path_len, sizeof(s->path));
		ck_assert_uint_eq(strlen(e->path), e->path_len);
		memcpy(s->path, e->path, e->path_len + 1);
		ck_assert_ptr_eq(e->name, strrchr(e->path, '/') + 1);
		s->depth = e->depth;
		memcpy(s->alias, e->alias, sizeof(s->alias));
		s->attr = e->attr;
		s->size = e->size;
		s->first_cl = e->first_cl;
		s->clusters = e->clusters;
		s->slot = e->slot;
		s->run_count = e->run_count;
		s->run_clusters = 0;
		for (i = 0; i < e->run_count; i++)
			s->run_clusters += e->runs[i].count;
		if (e->run_count)
			ck_assert_uint_eq(e->runs[0].start, e->first_cl);
		s->second_cl = e->clusters < 2 ? 0 :
			       e->runs[0].count > 1 ? e->runs[0].start + 1 :
			       e->runs[1].start;
		s->mdate = e->modified.date;
		s->mtime = e->modified.time;
		s->hash[0] = '\0';
		if (e->attr & FP_ATTR_DIR) {
			ck_assert_int_eq(fp_list_hash(l, e, FP_SHA256_C, d),
					 FP_E_INVAL);
		} else if (!(flags & FP_LIST_NO_RUNS)) {
			ck_assert_int_eq(fp_list_hash(l, e, fp_sha256_best(),
						      d), FP_OK);
			fp_sha256_hex(d, s->hash);
		}
	}
	if (l)	/* the error stays */
		ck_assert_int_eq(fp_list_next(l, &e, diag), err);
	fp_list_free(l);
	fp_fs_free(fs);
	fp_img_close(im);
	return err;
}

/*
 * A tree made by mtools on a mkfs.fat volume of type @fat: long,
 * mixed-case and UTF-8 names, a fragmented file, an empty file and an
 * empty directory, a label.
 */
static void make_tree(int fat)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "mkfs.fat -C --invariant -F %d -s 1 -n LBL \"$IMG\" %d "
		 ">/dev/null", fat, fat == 32 ? 40960 : fat == 16 ? 8192 : 2048);
	sh(cmd);
	sh("cd \"$(dirname \"$IMG\")\" && printf 'x%.0s' $(seq 1 1500) > "
	   "a.bin && seq 1 700 > b.bin && printf 'hello\\n' > h.txt && : > empty && "
	   "mmd -i \"$IMG\" ::/Sub ::/Sub/Deeper ::/EmptyDir && "
	   "mcopy -i \"$IMG\" a.bin ::/First.bin && "
	   "mcopy -i \"$IMG\" h.txt ::/Sub/Long\\ file\\ name.txt && "
	   "mcopy -i \"$IMG\" h.txt ::/Sub/Deeper/Caf\xc3\xa9.txt && "
	   "mcopy -i \"$IMG\" empty ::/ZERO && "
	   "mcopy -i \"$IMG\" a.bin ::/Sub/Frag.bin && "
	   "mdel -i \"$IMG\" ::/First.bin && "
	   "mcopy -i \"$IMG\" b.bin ::/Last.bin");
}

static const char *const want_paths[] = {
	"/Sub", "/Sub/Deeper", "/Sub/Deeper/Caf\xc3\xa9.txt",
	"/Sub/Long file name.txt", "/Sub/Frag.bin", "/EmptyDir", "/Last.bin",
	"/ZERO",
};

/*
 * Pre-order, slot order, names and facts on FAT12, FAT16 and FAT32:
 * the label, the deleted First.bin and the dot entries are not listed;
 * Last.bin, copied after ZERO, took First.bin's deleted slots, so it
 * comes before ZERO (slot order, not the order of creation).
 */
START_TEST(test_tree)
{
	static const int types[] = { 12, 16, 32 };
	char cmd[512], want[FP_SHA256_HEX];
	struct fp_list_diag diag = { 0 };
	FILE *f;
	struct seen s[16];
	size_t n, i, runs;

	make_tree(types[_i]);
	ck_assert_int_eq(list("/", 0, s, 16, &n, &diag), FP_OK);
	ck_assert_uint_eq(n, sizeof(want_paths) / sizeof(*want_paths));
	for (i = 0; i < n; i++)
		ck_assert_str_eq(s[i].path, want_paths[i]);
	ck_assert_uint_eq(s[0].depth, 1);
	ck_assert_uint_eq(s[1].depth, 2);
	ck_assert_uint_eq(s[2].depth, 3);
	ck_assert_str_eq(s[0].alias, "SUB");
	ck_assert_str_eq(s[3].alias, "LONGFI~1.TXT");
	ck_assert_uint_eq(s[0].attr & FP_ATTR_DIR, FP_ATTR_DIR);
	ck_assert_uint_eq(s[0].size, 0);
	ck_assert_uint_eq(s[0].clusters, 1);
	ck_assert_uint_eq(s[2].size, 6);
	ck_assert_uint_eq(s[7].size, 0);
	ck_assert_uint_eq(s[7].first_cl, 0);
	ck_assert_uint_eq(s[7].clusters, 0);
	ck_assert_uint_eq(s[7].run_count, 0);
	ck_assert_uint_eq(s[6].size, 2692);	/* seq 1 700 */
	ck_assert_uint_eq(s[6].clusters, 6);
	ck_assert_uint_eq(s[6].run_clusters, 6);
	ck_assert_uint_lt(s[6].slot, s[7].slot);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(s[i].run_clusters, s[i].clusters);
		ck_assert_uint_ne(s[i].mdate, 0);
	}
	/* a slot order: Sub's children as mtools appended them */
	ck_assert_uint_lt(s[3].slot, s[4].slot);
	/* Last.bin's runs as mshowfat prints them, "<5-7> <12-14>" */
	f = popen("mshowfat -i \"$IMG\" ::/Last.bin | tr -cd '<' | wc -c",
		  "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%zu", &runs), 1);
	ck_assert_int_eq(pclose(f), 0);
	ck_assert_uint_eq(s[6].run_count, runs);
	/* the content as mtype reads it, hashed by sha256sum */
	for (i = 0; i < n; i++) {
		if (s[i].attr & FP_ATTR_DIR)
			continue;
		ck_assert_int_lt(snprintf(cmd, sizeof(cmd), "mtype -i \"$IMG\" "
					  "'::%.256s' | sha256sum", s[i].path),
				 (int)sizeof(cmd));
		f = popen(cmd, "r");
		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(fscanf(f, "%64s", want), 1);
		ck_assert_int_eq(pclose(f), 0);
		ck_assert_str_eq(s[i].hash, want);
	}
	fp_list_diag_release(&diag);
}
END_TEST

/* A start path: itself first at depth 0, then what it holds. */
START_TEST(test_start)
{
	struct fp_list_diag diag = { 0 };
	struct seen s[16];
	size_t n;

	make_tree(16);
	ck_assert_int_eq(list("sub/", 0, s, 16, &n, &diag), FP_OK);
	ck_assert_uint_eq(n, 5);
	ck_assert_str_eq(s[0].path, "/Sub");
	ck_assert_uint_eq(s[0].depth, 0);
	ck_assert_str_eq(s[1].path, "/Sub/Deeper");
	ck_assert_uint_eq(s[1].depth, 1);
	ck_assert_uint_eq(s[2].depth, 2);
	ck_assert_str_eq(s[4].path, "/Sub/Frag.bin");

	ck_assert_int_eq(list("/SUB/LONGFI~1.TXT", 0, s, 16, &n, &diag),
			 FP_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(s[0].path, "/Sub/Long file name.txt");

	ck_assert_int_eq(list("/EmptyDir", FP_LIST_NO_RUNS, s, 16, &n,
			      &diag), FP_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(s[0].run_count, 0);
	ck_assert_uint_eq(s[0].clusters, 1);

	ck_assert_int_eq(list("/Sub/nothing", 0, s, 16, &n, &diag),
			 FP_E_NOFILE);
	ck_assert_str_eq(diag.path, "/Sub/nothing");
	ck_assert_int_eq(list("/nothing/x", 0, s, 16, &n, &diag),
			 FP_E_NOENT);
	ck_assert_str_eq(diag.path, "/nothing");
	ck_assert_int_eq(list("/ZERO/", 0, s, 16, &n, &diag), FP_E_NOTDIR);
	ck_assert_str_eq(diag.path, "/ZERO");
	ck_assert_int_eq(list("/ZERO/x", 0, s, 16, &n, &diag), FP_E_NOTDIR);
	fp_list_diag_release(&diag);
}
END_TEST

/* The volume's geometry, read by the library from the image. */
static struct fp_geom geom(void)
{
	struct fp_img *im;
	struct fp_fs *fs;
	struct fp_geom g;
	int errnum;

	ck_assert_int_eq(fp_img_open(img, 0, &im, &errnum), FP_OK);
	ck_assert_int_eq(fp_fs_open(im, &fs), FP_OK);
	g = *fp_fs_geom(fs);
	fp_fs_free(fs);
	fp_img_close(im);
	return g;
}

/* Byte offset of entry @slot of the directory whose chain starts at @cl. */
static uint64_t ent_off(const struct fp_geom *g, uint32_t cl, uint32_t slot)
{
	if (!cl)
		return g->root_off + (uint64_t)slot * 32;
	ck_assert_uint_lt((uint64_t)slot * 32, g->clus_len);
	return fp_geom_cl_off(g, cl) + (uint64_t)slot * 32;
}

/* Set FAT16 entry @cl to @val in every copy. */
static void put_fat16(const struct fp_geom *g, uint32_t cl, uint16_t val)
{
	uint8_t b[2];
	uint32_t k;

	fp_put_le16(b, val);
	for (k = 0; k < g->fat_count; k++)
		poke(g->fat_off + k * g->fat_len + 2 * cl, b, 2);
}

/*
 * Hostile trees: a directory that holds its parent (a cycle), two files
 * on one chain (a cross-link), a chain that runs past the volume's end:
 * each stops the listing at the entry, FP_E_DAMAGED with its path and
 * problem, after the entries before it; nothing loops.
 */
START_TEST(test_hostile)
{
	struct fp_list_diag diag = { 0 };
	struct seen s[16], t[16];
	struct fp_geom g;
	uint8_t b[4];
	size_t n, m;

	make_tree(16);
	g = geom();
	ck_assert_int_eq(list("/", 0, s, 16, &n, &diag), FP_OK);

	/* /Sub/Deeper's entry points at /Sub: a cycle */
	fp_put_le16(b, (uint16_t)s[0].first_cl);
	poke(ent_off(&g, s[0].first_cl, s[1].slot) + DIR_CLUS_LO, b, 2);
	ck_assert_int_eq(list("/", 0, t, 16, &m, &diag), FP_E_DAMAGED);
	ck_assert_str_eq(diag.path, "/Sub/Deeper");
	ck_assert_int_eq(diag.problem, FP_P_DIR_CYCLE);
	ck_assert_uint_eq(m, 1);
	fp_put_le16(b, (uint16_t)s[1].first_cl);
	poke(ent_off(&g, s[0].first_cl, s[1].slot) + DIR_CLUS_LO, b, 2);
	ck_assert_int_eq(list("/", 0, t, 16, &m, &diag), FP_OK);

	/*
	 * /ZERO (empty) made 1000 bytes from Last.bin's second cluster on:
	 * the walk finds the cross-link at ZERO, listed after Last.bin;
	 * Last.bin holds a shared cluster, and is refused first.
	 */
	ck_assert_uint_ne(s[6].second_cl, 0);
	fp_put_le16(b, (uint16_t)s[6].second_cl);
	poke(ent_off(&g, 0, s[7].slot) + DIR_CLUS_LO, b, 2);
	fp_put_le32(b, 1000);	/* its chain: 2 clusters of 5 */
	poke(ent_off(&g, 0, s[7].slot) + DIR_SIZE, b, 4);
	ck_assert_int_eq(list("/", 0, t, 16, &m, &diag), FP_E_DAMAGED);
	ck_assert_int_eq(diag.problem, FP_P_CROSS_LINK);
	ck_assert_str_eq(diag.path, "/Last.bin");
	ck_assert_uint_eq(m, 6);
	ck_assert_int_eq(list("/ZERO", FP_LIST_NO_RUNS, t, 16, &m, &diag),
			 FP_E_DAMAGED);
	ck_assert_int_eq(diag.problem, FP_P_CROSS_LINK);
	ck_assert_str_eq(diag.path, "/ZERO");
	ck_assert_int_eq(list("/Sub", 0, t, 16, &m, &diag), FP_OK);
	ck_assert_uint_eq(m, 5);
	memset(b, 0, sizeof(b));
	poke(ent_off(&g, 0, s[7].slot) + DIR_CLUS_LO, b, 2);
	poke(ent_off(&g, 0, s[7].slot) + DIR_SIZE, b, 4);
	ck_assert_int_eq(list("/", 0, t, 16, &m, &diag), FP_OK);

	/* Last.bin's first cluster links past the last cluster */
	put_fat16(&g, s[6].first_cl, (uint16_t)(fp_geom_max_cl(&g) + 1));
	ck_assert_int_eq(list("/", 0, t, 16, &m, &diag), FP_E_DAMAGED);
	ck_assert_str_eq(diag.path, "/Last.bin");
	ck_assert_int_eq(diag.problem, FP_P_CHAIN_RANGE);
	ck_assert_uint_eq(m, 6);
	ck_assert_int_eq(list("/Last.bin", 0, t, 16, &m, &diag),
			 FP_E_DAMAGED);
	ck_assert_uint_eq(m, 0);
	fp_list_diag_release(&diag);
}
END_TEST

/* fp_list_read() into a buffer: the bytes, and a stop on the second call. */
struct sink {
	uint8_t *buf;
	size_t len, cap;
	unsigned calls, stop_at;
};

static enum fp_err sink_data(void *ctx, const uint8_t *p, size_t n)
{
	struct sink *k = ctx;

	if (++k->calls == k->stop_at)
		return FP_E_NOSPC;
	ck_assert_uint_le(k->len + n, k->cap);
	memcpy(k->buf + k->len, p, n);
	k->len += n;
	return FP_OK;
}

/*
 * The content of a fragmented file of 5 MiB (more than one 2 MiB read)
 * through fp_list_read(), against mtype's; the callback's error stops it.
 * A listing without runs reads it once fp_list_map() mapped them.
 */
START_TEST(test_read)
{
	const struct fp_list_entry *e;
	struct fp_list_diag diag = { 0 };
	struct sink k = { 0 };
	struct fp_list *l;
	struct fp_img *im;
	struct fp_fs *fs;
	uint8_t *want;
	int errnum;
	FILE *f;

	sh("mkfs.fat -C --invariant -F 16 -s 1 \"$IMG\" 8192 >/dev/null && "
	   "cd \"$(dirname \"$IMG\")\" && head -c 100000 /dev/urandom >a && "
	   "head -c 5242880 /dev/urandom >big && "
	   "mcopy -i \"$IMG\" a ::/A && mcopy -i \"$IMG\" a ::/B && "
	   "mdel -i \"$IMG\" ::/A && mcopy -i \"$IMG\" big ::/BIG && "
	   "mtype -i \"$IMG\" ::/BIG >want");
	want = malloc(5242880);
	k.cap = 5242880;
	k.buf = malloc(k.cap);
	ck_assert(want && k.buf);
	snprintf((char *)want, 5242880, "%s/want", dir);
	f = fopen((char *)want, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(want, 1, 5242880, f), 5242880);
	fclose(f);
	ck_assert_int_eq(fp_img_open(img, 0, &im, &errnum), FP_OK);
	ck_assert_int_eq(fp_fs_open(im, &fs), FP_OK);
	ck_assert_int_eq(fp_list_open(fs, "/BIG", 0, &l, &diag), FP_OK);
	ck_assert_int_eq(fp_list_next(l, &e, &diag), FP_OK);
	ck_assert_uint_ge(e->run_count, 2);	/* A's hole, then on */
	ck_assert_int_eq(fp_list_read(l, e, sink_data, &k), FP_OK);
	ck_assert_uint_eq(k.len, 5242880);
	ck_assert(!memcmp(k.buf, want, k.len));
	k.len = k.calls = 0;
	k.stop_at = 2;
	ck_assert_int_eq(fp_list_read(l, e, sink_data, &k), FP_E_NOSPC);
	ck_assert_uint_eq(k.calls, 2);
	fp_list_free(l);
	/* without runs: none to read until fp_list_map() makes them */
	ck_assert_int_eq(fp_list_open(fs, "/BIG", FP_LIST_NO_RUNS, &l, &diag),
			 FP_OK);
	ck_assert_int_eq(fp_list_next(l, &e, &diag), FP_OK);
	ck_assert_ptr_null(e->runs);
	ck_assert_int_eq(fp_list_read(l, e, sink_data, &k), FP_E_INVAL);
	ck_assert_int_eq(fp_list_map(l, e), FP_OK);
	ck_assert_uint_ge(e->run_count, 2);
	k.len = k.calls = k.stop_at = 0;
	ck_assert_int_eq(fp_list_read(l, e, sink_data, &k), FP_OK);
	ck_assert_uint_eq(k.len, 5242880);
	ck_assert(!memcmp(k.buf, want, k.len));
	fp_list_free(l);
	fp_fs_free(fs);
	fp_img_close(im);
	free(want);
	free(k.buf);
}
END_TEST

/* The decoded times: fields as the FAT specification lays them out. */
START_TEST(test_time)
{
	struct fp_list_time t;

	/* 2026-12-03 17:04:58.37: date (46 << 9 | 12 << 5 | 3) */
	fp_list_time_decode(46 << 9 | 12 << 5 | 3, 17 << 11 | 4 << 5 | 29,
			    137, &t);
	ck_assert(t.valid);
	ck_assert_int_eq(t.year, 2026);
	ck_assert_int_eq(t.month, 12);
	ck_assert_int_eq(t.day, 3);
	ck_assert_int_eq(t.hour, 17);
	ck_assert_int_eq(t.minute, 4);
	ck_assert_int_eq(t.second, 59);
	ck_assert_int_eq(t.centi, 37);
	fp_list_time_decode(0, 0, 0, &t);	/* not set */
	ck_assert(!t.valid);
	fp_list_time_decode(1 << 5 | 1, 24 << 11, 0, &t);	/* 24:00 */
	ck_assert(!t.valid);
	fp_list_time_decode(1 << 5 | 1, 0, 200, &t);
	ck_assert(!t.valid);
	/* a day the month has not: not a date */
	fp_list_time_decode(40 << 9 | 2 << 5 | 30, 0, 0, &t);	/* 2020-02-30 */
	ck_assert(!t.valid);
	fp_list_time_decode(40 << 9 | 2 << 5 | 29, 0, 0, &t);	/* 2020-02-29 */
	ck_assert(t.valid);
	fp_list_time_decode(41 << 9 | 2 << 5 | 29, 0, 0, &t);	/* 2021-02-29 */
	ck_assert(!t.valid);
	fp_list_time_decode(120 << 9 | 2 << 5 | 29, 0, 0, &t);	/* 2100-02-29 */
	ck_assert(!t.valid);
	fp_list_time_decode(20 << 9 | 2 << 5 | 29, 0, 0, &t);	/* 2000-02-29 */
	ck_assert(t.valid);
	fp_list_time_decode(40 << 9 | 4 << 5 | 31, 0, 0, &t);	/* 2020-04-31 */
	ck_assert(!t.valid);
	fp_list_time_decode(127 << 9 | 12 << 5 | 31, 0, 0, &t);	/* 2107-12-31 */
	ck_assert(t.valid);
}
END_TEST

static Suite *list_suite(void)
{
	Suite *s = suite_create("list");
	TCase *tc = tcase_create("list");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_tree, 0, 3);
	tcase_add_test(tc, test_start);
	tcase_add_test(tc, test_hostile);
	tcase_add_test(tc, test_time);
	tcase_add_test(tc, test_read);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(list_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
