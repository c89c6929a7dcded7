/* check_crash.c - a commit stopped dead at every write leaves a sound image. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"
#include "verify.h"

/*
 * A FAT32 volume from mkfs.fat (2 FATs, FSInfo, 512-byte clusters so that
 * a directory fills quickly), prepared by fatprealloc itself: a file to
 * extend, a large file to keep right behind it (so the extension lands
 * more than a FAT sector away and its link is a write of its own), and a
 * directory whose first cluster is full.
 */
static uint8_t *base;
static uint64_t base_len;

static void load_mkfs_image(void)
{
	char dir[] = "/tmp/check_crash.XXXXXX", path[64], cmd[160];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/x.img", dir);
	snprintf(cmd, sizeof(cmd), "mkfs.fat -C --invariant -F 32 -s 1 "
		 "'%s' 40000 >/dev/null 2>&1", path);
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

/* Plan and commit @r on @img; return the number of writes it made. */
static unsigned long commit(struct fp_img *img, const struct fp_req *r,
			    size_t n, enum fp_err want)
{
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1,
				   .parents = 1 };
	struct fp_plan_diag diag;
	struct fp_plan *plan;
	struct fp_fs *fs;
	unsigned long before = fp_img_write_count(img);

	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	ck_assert_int_eq(fp_plan_build(fs, &o, r, n, &plan, &diag), FP_OK);
	ck_assert_int_eq(fp_plan_commit(plan, 1), want);
	fp_plan_free(plan);
	fp_fs_free(fs);
	return fp_img_write_count(img) - before;
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

	load_mkfs_image();
	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	ck_assert_int_eq(fp_plan_build(fs, &o, prep, 15, &plan, &diag),
			 FP_OK);
	ck_assert_int_eq(fp_plan_commit(plan, 1), FP_OK);
	fp_plan_free(plan);
	fp_fs_free(fs);
	memcpy(base, fp_img_mem_data(img), base_len);
	fp_img_close(img);
}

static void teardown(void)
{
	free(base);
}

/* The requests whose commit is cut short. */
static const struct fp_req work[] = {
	{ "/old.bin", 300000 },			/* extend: a link */
	{ "/d/A long name that needs slots.bin", 200000 },	/* grows d */
	{ "/new.bin", 100000 },
	{ "/e/f/deep.bin", 5000 },		/* two new directories */
};

/*
 * Only findings a crash may leave: lost clusters and their traces (a chain
 * linked before its entry's size was written, a stale FSInfo count).
 * Returns 1 when the FAT copies differ, which a crash between the copies
 * leaves; the caller then checks each copy on its own.
 */
static int check_findings(struct fp_img *img, unsigned long k, int copy)
{
	struct fp_report *r;
	int mismatch = 0;
	size_t i;

	ck_assert_int_eq(fp_verify(img, &r), FP_OK);
	for (i = 0; i < r->finding_count; i++) {
		enum fp_problem p = r->findings[i].problem;

		if (p == FP_P_FAT_MISMATCH && copy < 0) {
			mismatch = 1;
			continue;
		}
		ck_assert_msg(p == FP_P_LOST || p == FP_P_TAIL ||
			      p == FP_P_FSINFO_FREE,
			      "stop at write %lu (FAT copy %d): %s at '%s'", k,
			      copy, fp_problem_code(p), r->findings[i].path);
	}
	fp_report_free(r);
	return mismatch;
}

/* The image as a checker would see it if FAT copy @copy were the only one. */
static void check_copy(struct fp_img *img, unsigned long k, int copy)
{
	const uint8_t *d = fp_img_mem_data(img);
	struct fp_img *one;
	struct fp_fs *fs;
	struct fp_geom g;
	uint32_t c;

	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	g = fs->geom;
	fp_fs_free(fs);
	ck_assert_int_eq(fp_img_mem(d, base_len, &one), FP_OK);
	for (c = 0; c < g.fat_count; c++)
		ck_assert_int_eq(fp_img_write(one, g.fat_off + c * g.fat_len,
					      d + g.fat_off + copy * g.fat_len,
					      g.fat_len), FP_OK);
	check_findings(one, k, copy);
	fp_img_close(one);
}

static void assert_sound(struct fp_img *img, unsigned long k)
{
	if (check_findings(img, k, -1)) {
		check_copy(img, k, 0);
		check_copy(img, k, 1);
	}
}

START_TEST(test_stop_at_every_write)
{
	struct fp_img *img;
	unsigned long total, k;

	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	total = commit(img, work, 4, FP_OK);
	assert_sound(img, 0);
	fp_img_close(img);
	ck_assert_uint_ge(total, 6);
	for (k = 1; k <= total; k++) {
		ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
		fp_img_fail_write(img, fp_img_write_count(img) + k, EIO);
		commit(img, work, 4, FP_E_IO);
		assert_sound(img, k);
		fp_img_close(img);
	}
}
END_TEST

static Suite *crash_suite(void)
{
	Suite *s = suite_create("crash");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_stop_at_every_write);
	suite_add_tcase(s, tc);
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
