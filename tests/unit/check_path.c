/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_path.c - path components, keys, and walks on a memory image. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "le.h"
#include "map.h"
#include "path.h"
#include "testvol.h"

/* ---- components ----------------------------------------------------- */

/* The components of @path joined by '|', as fp_path_next() splits it. */
static void split(const char *path, char *out, size_t out_len)
{
	const char *s;
	size_t len, n = 0;

	out[0] = '\0';
	while (fp_path_next(&path, &s, &len)) {
		ck_assert_uint_lt(n + len + 2, out_len);
		if (n)
			out[n++] = '|';
		memcpy(out + n, s, len);
		n += len;
		out[n] = '\0';
	}
	ck_assert_int_eq(*path, '\0');
}

START_TEST(test_next_splits_on_slashes)
{
	char buf[64];

	split("/a/b.txt", buf, sizeof(buf));
	ck_assert_str_eq(buf, "a|b.txt");
	split("a//b///c/", buf, sizeof(buf));
	ck_assert_str_eq(buf, "a|b|c");
	split("/./../x", buf, sizeof(buf));
	ck_assert_str_eq(buf, ".|..|x");
	split("\xc3\xa9" "cole/\xe6\x97\xa5", buf, sizeof(buf));
	ck_assert_str_eq(buf, "\xc3\xa9" "cole|\xe6\x97\xa5");
	split("", buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	split("///", buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(test_next_leaves_path_after_component)
{
	const char *path = "//dir/name", *s = NULL;
	size_t len = 0;

	ck_assert(fp_path_next(&path, &s, &len));
	ck_assert_uint_eq(len, 3);
	ck_assert(!strncmp(s, "dir", 3));
	ck_assert_str_eq(path, "/name");
	ck_assert(fp_path_next(&path, &s, &len));
	ck_assert_str_eq(s, "name");
	ck_assert_str_eq(path, "");
	ck_assert(!fp_path_next(&path, &s, &len));
	ck_assert_str_eq(s, "name");	/* untouched at the end */
}
END_TEST

static enum fp_err name_of(const char *s, uint16_t *u, size_t *n)
{
	return fp_path_name(s, strlen(s), u, n);
}

START_TEST(test_name_decodes_and_checks)
{
	uint16_t u[FP_LFN_MAX];
	size_t n = 0;

	ck_assert_int_eq(name_of("\xc3\xa9" "cole", u, &n), FP_OK);
	ck_assert_uint_eq(n, 5);
	ck_assert_uint_eq(u[0], 0xE9);
	ck_assert_uint_eq(u[1], 'c');
	ck_assert_int_eq(name_of("\xe6\x97\xa5", u, &n), FP_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(u[0], 0x65E5);
	ck_assert_int_eq(name_of("\xff", u, &n), FP_E_NAME);
	ck_assert_int_eq(name_of("\xc3", u, &n), FP_E_NAME);
	ck_assert_int_eq(name_of("\xf0\x9f\x98\x80", u, &n), FP_E_NONBMP);
	ck_assert_int_eq(name_of(".", u, &n), FP_E_NAME);
	ck_assert_int_eq(name_of("..", u, &n), FP_E_NAME);
	ck_assert_int_eq(name_of("a:b", u, &n), FP_E_NAME);
	n = 0;
	ck_assert_int_eq(name_of("Con.txt", u, &n), FP_E_RESERVED);
	ck_assert_uint_eq(n, 7);
}
END_TEST

/* @count copies of the @len-byte character @c, NUL-terminated (malloc'd). */
static char *repeat(const char *c, size_t len, size_t count)
{
	char *s = malloc(len * count + 1);
	size_t i;

	ck_assert_ptr_nonnull(s);
	for (i = 0; i < count; i++)
		memcpy(s + i * len, c, len);
	s[len * count] = '\0';
	return s;
}

START_TEST(test_name_length_in_units)
{
	uint16_t u[FP_LFN_MAX];
	char *a255 = repeat("a", 1, FP_LFN_MAX), *a256 = repeat("a", 1, 256);
	char *e255 = repeat("\xc3\xa9", 2, FP_LFN_MAX);
	char *e256 = repeat("\xc3\xa9", 2, 256);
	size_t n = 0;

	ck_assert_int_eq(name_of(a255, u, &n), FP_OK);
	ck_assert_uint_eq(n, FP_LFN_MAX);
	ck_assert_int_eq(name_of(a256, u, &n), FP_E_NAMELEN);
	n = 0;
	ck_assert_int_eq(name_of(e255, u, &n), FP_OK);	/* 510 bytes */
	ck_assert_uint_eq(n, FP_LFN_MAX);
	ck_assert_uint_eq(u[FP_LFN_MAX - 1], 0xE9);
	ck_assert_int_eq(name_of(e256, u, &n), FP_E_NAMELEN);
	free(a255);
	free(a256);
	free(e255);
	free(e256);
}
END_TEST

/* ---- keys ----------------------------------------------------------- */

static void check_key(const char *path, const char *want)
{
	char *key = fp_path_key(path);

	ck_assert_ptr_nonnull(key);
	ck_assert_str_eq(key, want);
	free(key);
}

START_TEST(test_key_folds_each_component)
{
	check_key("/a/b.txt", "/A/B.TXT");
	check_key("a//b.txt/", "/A/B.TXT");
	check_key("", "");
	check_key("//", "");
	check_key("/a/./b", "/A/./B");
	check_key("..", "/..");
	check_key("\xc3\xa9" "cole", "/\xc3\x89" "COLE");
	check_key("\xce\xb1\xd0\xb6", "/\xce\x91\xd0\x96");	/* alpha, zhe */
	check_key("stra\xc3\x9f" "e", "/STRA\xc3\x9f" "E");	/* no "SS" */
	check_key("x/\xff/y", "/X/\xff/Y");	/* not UTF-8: as it is */
}
END_TEST

/* A component of more than FP_LFN_MAX units keeps its bytes. */
START_TEST(test_key_of_long_component)
{
	char *a300 = repeat("a", 1, 300), *path, *want, *key;

	path = malloc(310);
	want = malloc(310);
	ck_assert_ptr_nonnull(path);
	ck_assert_ptr_nonnull(want);
	strcpy(path, "d/");
	strcat(path, a300);
	strcpy(want, "/D/");
	strcat(want, a300);
	key = fp_path_key(path);
	ck_assert_ptr_nonnull(key);
	ck_assert_str_eq(key, want);
	free(key);
	free(a300);
	free(path);
	free(want);
}
END_TEST

/* ---- same paths ----------------------------------------------------- */

START_TEST(test_same_path)
{
	ck_assert(fp_path_same("/a/b.txt", "a//B.TXT"));
	ck_assert(fp_path_same("\xc3\xa9" "cole", "/\xc3\x89" "COLE"));
	ck_assert(!fp_path_same("/a/b", "/a/b/c"));
	ck_assert(!fp_path_same("/a/b", "/a/c"));
	ck_assert(!fp_path_same("stra\xc3\x9f" "e", "STRASSE"));
	ck_assert(fp_path_same("\xff", "\xff"));
	ck_assert(!fp_path_same("\xff", "\xfe"));
}
END_TEST

START_TEST(test_same_path_slashes_and_dots)
{
	ck_assert(fp_path_same("/a/b/", "a/b"));
	ck_assert(fp_path_same("//a///b//", "/A/B"));
	ck_assert(fp_path_same("/", ""));
	ck_assert(!fp_path_same("/a", "/"));
	ck_assert(!fp_path_same("/a/./b", "/a/b"));	/* "." is a name */
	ck_assert(!fp_path_same("/a/../b", "/b"));
	ck_assert(!fp_path_same("/a/.", "/a/.."));
	ck_assert(fp_path_same("\xce\xb1", "\xce\x91"));
	ck_assert(!fp_path_same("a b", "ab"));
}
END_TEST

START_TEST(test_same_path_long_components)
{
	char *lo = repeat("a", 1, 300), *up = repeat("A", 1, 300);
	char *lo255 = repeat("a", 1, FP_LFN_MAX);
	char *up255 = repeat("A", 1, FP_LFN_MAX);

	ck_assert(fp_path_same(lo, lo));
	ck_assert(!fp_path_same(lo, up));	/* beyond a name: bytes */
	ck_assert(fp_path_same(lo255, up255));
	free(lo);
	free(up);
	free(lo255);
	free(up255);
}
END_TEST

/* ---- walks ---------------------------------------------------------- */

/*
 * The test volume with, in the root: SUB (cluster 2), FILE.TXT (empty),
 * NOCHAIN (a directory entry without a chain) and CON; in SUB: BACK, a
 * directory entry that leads back to SUB.
 */
static void setup(void)
{
	uint8_t *root, *sub;

	testvol_make();
	root = vol + ROOT;
	sub = vol + testvol_cl_off(2);
	fp_dirent_encode(root, (const uint8_t *)"SUB        ", FP_ATTR_DIR,
			 0, 2, 0, 0, 0, 0, 0);
	fp_dirent_encode(root + 32, (const uint8_t *)"FILE    TXT",
			 FP_ATTR_ARCHIVE, 0, 0, 0, 0, 0, 0, 0);
	fp_dirent_encode(root + 64, (const uint8_t *)"NOCHAIN    ",
			 FP_ATTR_DIR, 0, 0, 0, 0, 0, 0, 0);
	fp_dirent_encode(root + 96, (const uint8_t *)"CON        ",
			 FP_ATTR_DIR, 0, 3, 0, 0, 0, 0, 0);
	fp_dirent_encode(sub, (const uint8_t *)".          ", FP_ATTR_DIR,
			 0, 2, 0, 0, 0, 0, 0);
	fp_dirent_encode(sub + 32, (const uint8_t *)"..         ",
			 FP_ATTR_DIR, 0, 0, 0, 0, 0, 0, 0);
	fp_dirent_encode(sub + 64, (const uint8_t *)"BACK       ",
			 FP_ATTR_DIR, 0, 2, 0, 0, 0, 0, 0);
	put_fat(2, 0xFFFF);
	put_fat(3, 0xFFFF);
}

static void teardown(void)
{
	testvol_free();
}

struct wctx {
	struct fp_img *img;
	struct fp_fs *fs;
	struct fp_path_walk w;
	char where[256];
	enum fp_problem problem;
	uint16_t name[FP_LFN_MAX];
	size_t n;
	struct fp_dir *dir;
	size_t made;		/* calls of the missing hook */
	char made_path[64];
};

static void wctx_open(struct wctx *c, const struct fp_path_ops *ops)
{
	memset(c, 0, sizeof(*c));
	ck_assert_int_eq(fp_img_mem(vol, (uint64_t)TOTAL * SEC, &c->img),
			 FP_OK);
	ck_assert_int_eq(fp_fs_open(c->img, &c->fs), FP_OK);
	fp_path_walk_init(&c->w, c->fs, ops, c);
	fp_path_walk_report(&c->w, c->where, sizeof(c->where), &c->problem);
	c->problem = FP_P_COUNT;
}

static void wctx_close(struct wctx *c)
{
	fp_path_walk_release(&c->w);
	fp_fs_free(c->fs);
	fp_img_close(c->img);
}

static enum fp_err walk(struct wctx *c, const char *path)
{
	c->dir = NULL;
	return fp_path_parent(&c->w, &path, c->name, &c->n, &c->dir);
}

START_TEST(test_walk_to_parent)
{
	struct wctx c;

	wctx_open(&c, NULL);
	ck_assert_int_eq(walk(&c, "//sub/x.bin"), FP_OK);
	ck_assert_ptr_nonnull(c.dir);
	ck_assert_uint_eq(fp_dir_first_cl(c.dir), 2);
	ck_assert_uint_eq(c.n, 5);
	ck_assert_uint_eq(c.name[0], 'x');
	ck_assert_str_eq(c.where, "//sub");
	ck_assert_uint_eq(fp_path_depth(&c.w), 2);
	ck_assert_int_eq(walk(&c, "x.bin"), FP_OK);
	ck_assert_uint_eq(fp_dir_first_cl(c.dir), 0);
	ck_assert_str_eq(c.where, "/");
	ck_assert_int_eq(walk(&c, "SUB/y/"), FP_OK);	/* cached */
	ck_assert_uint_eq(fp_dir_first_cl(c.dir), 2);
	ck_assert_uint_eq(fp_path_dir_count(&c.w), 2);
	ck_assert_ptr_eq(fp_path_cached(&c.w, 2), c.dir);
	ck_assert_ptr_null(fp_path_cached(&c.w, 3));
	wctx_close(&c);
}
END_TEST

START_TEST(test_walk_refusals)
{
	struct wctx c;

	wctx_open(&c, NULL);
	ck_assert_int_eq(walk(&c, "/"), FP_E_NAME);
	ck_assert_int_eq(walk(&c, ""), FP_E_NAME);
	ck_assert_int_eq(walk(&c, "/none/x"), FP_E_NOENT);
	ck_assert_str_eq(c.where, "/none");
	ck_assert_int_eq(walk(&c, "/file.txt/x"), FP_E_NOTDIR);
	ck_assert_str_eq(c.where, "/file.txt");
	ck_assert_int_eq(walk(&c, "/sub/a:b"), FP_E_NAME);
	ck_assert_int_eq(walk(&c, "/sub/./x"), FP_E_NAME);
	ck_assert_int_eq(walk(&c, "/sub/nul.txt"), FP_E_RESERVED);
	ck_assert_str_eq(c.where, "nul.txt");
	ck_assert_int_eq(walk(&c, "/con/x"), FP_E_RESERVED);
	ck_assert_str_eq(c.where, "con");
	ck_assert_ptr_null(c.dir);
	fp_path_walk_allow_reserved(&c.w);
	ck_assert_int_eq(walk(&c, "/con/nul"), FP_OK);
	ck_assert_uint_eq(fp_dir_first_cl(c.dir), 3);
	wctx_close(&c);
}
END_TEST

START_TEST(test_walk_damage)
{
	struct wctx c;

	wctx_open(&c, NULL);
	ck_assert_int_eq(walk(&c, "/nochain/x"), FP_E_DAMAGED);
	ck_assert_int_eq(c.problem, FP_P_DIR_NO_CHAIN);
	ck_assert_str_eq(c.where, "/nochain");
	c.problem = FP_P_COUNT;
	ck_assert_int_eq(walk(&c, "/sub/back/x"), FP_E_DAMAGED);
	ck_assert_int_eq(c.problem, FP_P_DIR_CYCLE);
	ck_assert_str_eq(c.where, "/sub/back");
	c.problem = FP_P_COUNT;
	ck_assert_int_eq(walk(&c, "/sub/x"), FP_OK);	/* SUB itself is fine */
	ck_assert_int_eq(c.problem, FP_P_COUNT);
	wctx_close(&c);
}
END_TEST

/* Hooks: refuse SUB on entering it; make missing directories in memory. */
static enum fp_err refuse_sub(void *ctx, const struct fp_dirent *e)
{
	(void)ctx;
	return e->cl == 2 ? FP_E_CORRUPT : FP_OK;
}

static enum fp_err make_mem_dir(void *ctx, struct fp_dir *parent,
				const uint16_t *name, size_t n,
				const char *path, size_t len,
				struct fp_dir **out)
{
	struct wctx *c = ctx;
	struct fp_dir *d;
	uint32_t cl = 100 + (uint32_t)c->made;

	(void)name;
	(void)n;
	ck_assert_uint_lt(len, sizeof(c->made_path));
	memcpy(c->made_path, path, len);
	c->made_path[len] = '\0';
	c->made++;
	ck_assert_int_eq(fp_dir_create(fp_fs_geom(c->fs), cl,
				       fp_dir_first_cl(parent), 0, 0, &d),
			 FP_OK);
	return fp_path_keep(&c->w, d, out);
}

START_TEST(test_walk_hooks)
{
	static const struct fp_path_ops ops = {
		.enter = refuse_sub,
		.missing = make_mem_dir,
	};
	struct wctx c;

	wctx_open(&c, &ops);
	ck_assert_int_eq(walk(&c, "/sub/x"), FP_E_CORRUPT);
	ck_assert_uint_eq(fp_path_dir_count(&c.w), 1);	/* SUB not loaded */
	ck_assert_int_eq(walk(&c, "/new//deeper/x"), FP_OK);
	ck_assert_uint_eq(c.made, 2);
	ck_assert_str_eq(c.made_path, "/new//deeper");
	ck_assert_uint_eq(fp_dir_first_cl(c.dir), 101);
	ck_assert_uint_eq(fp_path_dir_count(&c.w), 3);
	wctx_close(&c);
}
END_TEST

/* fp_map_load(): a path that ends in a slash names a directory. */
START_TEST(test_map_slash_names_dir)
{
	struct fp_plan_diag d;
	struct fp_map m;
	struct wctx c;

	wctx_open(&c, NULL);
	ck_assert_int_eq(fp_map_load(c.fs, "file.txt", &m, &d), FP_OK);
	ck_assert_int_eq(m.is_dir, 0);
	fp_map_release(&m);
	ck_assert_int_eq(fp_map_load(c.fs, "/file.txt//", &m, &d),
			 FP_E_NOTDIR);
	ck_assert_str_eq(d.component, "/file.txt");
	ck_assert_int_eq(fp_map_load(c.fs, "sub/", &m, &d), FP_OK);
	ck_assert_int_eq(m.is_dir, 1);
	ck_assert_uint_eq(m.clusters, 1);
	fp_map_release(&m);
	wctx_close(&c);
}
END_TEST

static Suite *path_suite(void)
{
	Suite *s = suite_create("path");
	TCase *tc = tcase_create("strings");
	TCase *tw = tcase_create("walks");

	tcase_add_test(tc, test_next_splits_on_slashes);
	tcase_add_test(tc, test_next_leaves_path_after_component);
	tcase_add_test(tc, test_name_decodes_and_checks);
	tcase_add_test(tc, test_name_length_in_units);
	tcase_add_test(tc, test_key_folds_each_component);
	tcase_add_test(tc, test_key_of_long_component);
	tcase_add_test(tc, test_same_path);
	tcase_add_test(tc, test_same_path_slashes_and_dots);
	tcase_add_test(tc, test_same_path_long_components);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tw, setup, teardown);
	tcase_add_test(tw, test_walk_to_parent);
	tcase_add_test(tw, test_walk_refusals);
	tcase_add_test(tw, test_walk_damage);
	tcase_add_test(tw, test_walk_hooks);
	tcase_add_test(tw, test_map_slash_names_dir);
	suite_add_tcase(s, tw);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(path_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
