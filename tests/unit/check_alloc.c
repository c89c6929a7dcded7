/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * check_alloc.c - the allocator's policy, one case per row of the table in
 * docs/DESIGN.md ("The allocator entry point"), on a memory FAT16 volume
 * (testvol.h: clusters 2 .. 20288) whose used clusters the FAT marks.
 * The cluster numbers were also produced by the planner before it called
 * the allocator (fp_plan_build() with the same volume and request).
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "fs.h"
#include "testvol.h"

#define MAX_CL (CLUSTERS + 1u)	/* 20288 */

static struct fp_img *img;
static struct fp_fs *fs;
static struct fp_alloc *al;
static struct fp_alloc_diag diag;

static void setup(void)
{
	testvol_make();
}

static void teardown(void)
{
	fp_alloc_free(al);
	fp_fs_free(fs);
	fp_img_close(img);
	al = NULL;
	fs = NULL;
	img = NULL;
	testvol_free();
}

/* Mark clusters @from .. @to used in the FAT (before vol_open()). */
static void use(uint32_t from, uint32_t to)
{
	uint32_t cl;

	for (cl = from; cl <= to; cl++)
		put_fat(cl, 0xFFFF);
}

/*
 * Mark every cluster used but the runs @runs lists, pairs of first and
 * last cluster ended by a 0 (before vol_open()).
 */
static void only_free(const uint32_t *runs)
{
	uint32_t cl = 2;

	for (; runs[0]; runs += 2) {
		if (runs[0] > cl)
			use(cl, runs[0] - 1);
		cl = runs[1] + 1;
	}
	use(cl, MAX_CL);
}

/* Open the volume and an allocator over its bitmap; @hint 0: no FSInfo. */
static void vol_open(uint32_t hint)
{
	struct fp_fsinfo fi = { .valid = 1, .trusted = 1,
				.free_count = FP_FSINFO_UNKNOWN,
				.next_free = hint };

	ck_assert_int_eq(fp_img_mem(vol, (uint64_t)TOTAL * SEC, &img), FP_OK);
	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	ck_assert_int_eq(fp_fs_bitmap(fs), FP_OK);
	ck_assert_int_eq(fp_alloc_new(fp_fs_bm(fs), hint ? &fi : NULL, &al),
			 FP_OK);
	ck_assert_uint_eq(fp_alloc_hint(al), hint ? hint : 2);
}

/* Allocate one request; FP_OK or the error, with *runs and *n on FP_OK. */
static enum fp_err get(uint32_t need, uint32_t last, unsigned flags,
		       const struct fp_alloc_run **runs, size_t *n)
{
	struct fp_alloc_req r = { .need = need, .last_cl = last,
				  .flags = flags };

	memset(&diag, 0xA5, sizeof(diag));
	return fp_alloc_get(al, &r, 1, runs, n, &diag);
}

static void run_is(const struct fp_alloc_run *r, uint32_t start,
		   uint32_t count)
{
	ck_assert_uint_eq(r->start, start);
	ck_assert_uint_eq(r->count, count);
}

/* Allocate one request, which must get the one run @start, @count. */
static void get_one(uint32_t need, uint32_t last, unsigned flags,
		    uint32_t start, uint32_t count)
{
	const struct fp_alloc_run *r;
	size_t n;

	ck_assert_int_eq(get(need, last, flags, &r, &n), FP_OK);
	ck_assert_uint_eq(n, 1);
	run_is(&r[0], start, count);
}

/* Row 1: continue after the last cluster, FP_BM_FIXED_GOAL at last + 1. */
START_TEST(test_continue_after_last_cluster)
{
	const struct fp_alloc_run *r;
	size_t n;

	/*
	 * A chain on 2 .. 10 and a used cluster 14: 6 more clusters go to
	 * the 3 free ones right after the chain (11 .. 13), and the 3 still
	 * needed to the first run of 3 from the hint (2): 15 .. 17.
	 */
	use(2, 10);
	use(14, 14);
	vol_open(0);
	ck_assert_int_eq(get(6, 10, 0, &r, &n), FP_OK);
	ck_assert_uint_eq(n, 2);
	run_is(&r[0], 11, 3);
	run_is(&r[1], 15, 3);
	ck_assert_uint_eq(r[0].req, 0);
	ck_assert_uint_eq(r[1].req, 0);
	/* taken: the next request starts past them */
	ck_assert_int_eq(get(1, 0, 0, &r, &n), FP_OK);
	run_is(&r[0], 18, 1);
}
END_TEST

/* Row 2: first fit from the hint, then from cluster 2. */
START_TEST(test_first_fit_from_hint)
{
	/*
	 * Hint 100; 100 .. 102 and 104 .. 107 used: the first run of 5 at or
	 * after the hint is 108 .. 112 (103 alone is too short).  Then the
	 * volume from the hint on is used up (19000 .. 20288 used, 113 ..
	 * 18999 taken by one request: the first run from the hint holds it):
	 * 5 more come from cluster 2 on, 2 .. 6.
	 */
	use(100, 102);
	use(104, 107);
	use(19000, MAX_CL);
	vol_open(100);
	get_one(5, 0, 0, 108, 5);
	get_one(18999 - 113 + 1, 0, 0, 113, 18999 - 113 + 1);
	get_one(5, 0, 0, 2, 5);
}
END_TEST

/* Row 2: no first fit anywhere: the largest runs, fewest pieces. */
START_TEST(test_largest_runs_when_no_fit)
{
	const struct fp_alloc_run *r;
	size_t n;

	/*
	 * Free: 10 .. 12 (3), 20 .. 23 (4), 30 .. 31 (2).  6 clusters fit in
	 * no run: the largest (20 .. 23) first, then the 2 still needed fit
	 * the first run that holds 2 from the hint (2): 10 .. 11.
	 */
	only_free((const uint32_t[]){ 10, 12, 20, 23, 30, 31, 0 });
	vol_open(0);
	ck_assert_int_eq(get(6, 0, 0, &r, &n), FP_OK);
	ck_assert_uint_eq(n, 2);
	run_is(&r[0], 20, 4);
	run_is(&r[1], 10, 2);
}
END_TEST

/* Row 3: --contiguous, a new chain: one run of all, first fit. */
START_TEST(test_contiguous_new_chain)
{
	/*
	 * Free: 10 .. 12 (3), then 20 on.  5 clusters in one run: 10 .. 12
	 * is too short, so 20 .. 24.  A chain ending at 24 continues with
	 * -c right after it, 25 .. 28.
	 */
	use(2, 9);
	use(13, 19);
	vol_open(0);
	get_one(5, 0, FP_ALLOC_CONTIG, 20, 5);
	get_one(4, 24, FP_ALLOC_CONTIG, 25, 4);
}
END_TEST

/* Row 4: --place end, with and without -c. */
START_TEST(test_place_end)
{
	const struct fp_alloc_run *r;
	size_t n;

	/*
	 * 20286 used: 10 clusters take the highest run, 20287 .. 20288 (2),
	 * then, the goal going below it (20285), the top 8 of the run below:
	 * 20278 .. 20285.  With -c, 4 clusters in one run: the highest run
	 * that holds 4, its top 4: 20274 .. 20277 (20287 .. 20288 is gone).
	 */
	use(20286, 20286);
	vol_open(0);
	ck_assert_int_eq(get(10, 0, FP_ALLOC_END, &r, &n), FP_OK);
	ck_assert_uint_eq(n, 2);
	run_is(&r[0], 20287, 2);
	run_is(&r[1], 20278, 8);
	get_one(4, 0, FP_ALLOC_END | FP_ALLOC_CONTIG, 20274, 4);
}
END_TEST

/* Row 4: --place end under -c skips runs that are too short. */
START_TEST(test_place_end_contiguous_skips_short_runs)
{
	/*
	 * 20286 used: -c with 10 clusters skips the top run 20287 .. 20288
	 * (2) and takes the top 10 of 2 .. 20285: 20276 .. 20285.
	 */
	use(20286, 20286);
	vol_open(0);
	get_one(10, 0, FP_ALLOC_END | FP_ALLOC_CONTIG, 20276, 10);
}
END_TEST

/* Row 5: a directory cluster, the first free one from the hint. */
START_TEST(test_directory_cluster)
{
	const struct fp_alloc_req q[] = {
		{ .need = 2, .flags = FP_ALLOC_DIR },
		{ .need = 1, .flags = FP_ALLOC_DIR },
	};
	const struct fp_alloc_run *r;
	size_t n;

	/*
	 * Hint 50, 50 .. 51 used: a directory's clusters are 52, then 53,
	 * each a run of its own; with 54 .. 60 used the next is 61 (never
	 * below the hint while the volume has free clusters above it).
	 */
	use(50, 51);
	use(54, 60);
	vol_open(50);
	ck_assert_int_eq(fp_alloc_get(al, q, 2, &r, &n, &diag), FP_OK);
	ck_assert_uint_eq(n, 3);
	run_is(&r[0], 52, 1);
	run_is(&r[1], 53, 1);
	run_is(&r[2], 61, 1);
	ck_assert_uint_eq(r[0].req, 0);
	ck_assert_uint_eq(r[1].req, 0);
	ck_assert_uint_eq(r[2].req, 1);
}
END_TEST

/* Row 6: the largest run, the lowest of equal ones. */
START_TEST(test_largest_run)
{
	uint32_t start = 1, count = 1, free_count;

	/* free: 10 .. 12, 20 .. 23, 30 .. 33: the largest is 20 .. 23 */
	only_free((const uint32_t[]){ 10, 12, 20, 23, 30, 33, 0 });
	vol_open(0);
	ck_assert_int_eq(fp_alloc_largest_run(al, &start, &count), FP_OK);
	ck_assert_uint_eq(start, 20);
	ck_assert_uint_eq(count, 4);
	ck_assert_int_eq(fp_alloc_free_count(al, &free_count), FP_OK);
	ck_assert_uint_eq(free_count, 11);
}
END_TEST

/* Row 6: no free cluster: start 0, count 0. */
START_TEST(test_largest_run_full)
{
	uint32_t start = 1, count = 1;

	only_free((const uint32_t[]){ 0 });
	vol_open(0);
	ck_assert_int_eq(fp_alloc_largest_run(al, &start, &count), FP_OK);
	ck_assert_uint_eq(start, 0);
	ck_assert_uint_eq(count, 0);
}
END_TEST

/*
 * The free count of a change: FSInfo's count minus the clusters taken when
 * it can be right, else the bitmap's (11 free); plus the clusters freed,
 * at most the cluster count.
 */
START_TEST(test_free_after)
{
	struct fp_fsinfo fi = { .valid = 1, .trusted = 1, .free_count = 50 };
	uint32_t n = 0;

	only_free((const uint32_t[]){ 10, 12, 20, 23, 30, 33, 0 });
	vol_open(0);
	ck_assert_int_eq(fp_alloc_free_after(fp_fs_bm(fs), &fi, CLUSTERS, 3,
					     2, &n), FP_OK);
	ck_assert_uint_eq(n, 50 - 3 + 2);
	/* fewer than taken: the bitmap, which already counts what is taken */
	fi.free_count = 2;
	ck_assert_int_eq(fp_alloc_free_after(fp_fs_bm(fs), &fi, CLUSTERS, 3,
					     2, &n), FP_OK);
	ck_assert_uint_eq(n, 11 + 2);
	/* out of range, unknown, not trusted: the bitmap */
	fi.free_count = CLUSTERS + 1;
	ck_assert_int_eq(fp_alloc_free_after(fp_fs_bm(fs), &fi, CLUSTERS, 0,
					     0, &n), FP_OK);
	ck_assert_uint_eq(n, 11);
	fi.free_count = FP_FSINFO_UNKNOWN;
	ck_assert_int_eq(fp_alloc_free_after(fp_fs_bm(fs), &fi, CLUSTERS, 0,
					     0, &n), FP_OK);
	ck_assert_uint_eq(n, 11);
	fi.free_count = 50;
	fi.trusted = 0;
	ck_assert_int_eq(fp_alloc_free_after(fp_fs_bm(fs), &fi, CLUSTERS, 0,
					     0, &n), FP_OK);
	ck_assert_uint_eq(n, 11);
	/* what is freed counts up to the cluster count, no further */
	fi.trusted = 1;
	fi.free_count = CLUSTERS - 1;
	ck_assert_int_eq(fp_alloc_free_after(fp_fs_bm(fs), &fi, CLUSTERS, 0,
					     5, &n), FP_OK);
	ck_assert_uint_eq(n, CLUSTERS);
}
END_TEST

/*
 * The count written into FSInfo: minus the clusters taken, "unknown" when
 * in range but provably stale, an out-of-range value left alone; plus the
 * clusters freed, at most the cluster count.
 */
START_TEST(test_fsinfo_after)
{
	struct fp_fsinfo fi = { .valid = 1, .trusted = 1, .free_count = 50 };

	ck_assert_uint_eq(fp_alloc_fsinfo_after(&fi, CLUSTERS, 3, 2), 49);
	fi.free_count = 2;
	ck_assert_uint_eq(fp_alloc_fsinfo_after(&fi, CLUSTERS, 3, 2),
			  FP_FSINFO_UNKNOWN);
	fi.free_count = CLUSTERS + 1;
	ck_assert_uint_eq(fp_alloc_fsinfo_after(&fi, CLUSTERS, 3, 2),
			  CLUSTERS + 1);
	fi.free_count = FP_FSINFO_UNKNOWN;
	ck_assert_uint_eq(fp_alloc_fsinfo_after(&fi, CLUSTERS, 0, 2),
			  FP_FSINFO_UNKNOWN);
	fi.free_count = CLUSTERS - 1;
	ck_assert_uint_eq(fp_alloc_fsinfo_after(&fi, CLUSTERS, 0, 5),
			  CLUSTERS);
}
END_TEST

/* The clusters reserved (used although free in the FAT) are never taken. */
START_TEST(test_reserved_never_taken)
{
	const uint32_t keep[] = { 3, 4, 9 };

	/* 2 used, 3 and 4 reserved: 4 clusters go to 5 .. 8 */
	use(2, 2);
	vol_open(0);
	ck_assert_int_eq(fp_alloc_reserve(al, keep, 3), FP_OK);
	get_one(4, 0, 0, 5, 4);
}
END_TEST

/* FP_E_NOSPC: need, and avail = free clusters before the request. */
START_TEST(test_no_space_numbers)
{
	const struct fp_alloc_req q[] = {
		{ .need = 4 },
		{ .need = 8 },
	};
	const struct fp_alloc_run *r;
	size_t n;

	/*
	 * 10 free (100 .. 109): the first request takes 4 (100 .. 103), the
	 * second wants 8 of the 6 left: it fails with need 8, avail 6, the
	 * numbers "needs 8 clusters, 6 free" the command line prints.
	 */
	only_free((const uint32_t[]){ 100, 109, 0 });
	vol_open(0);
	memset(&diag, 0xA5, sizeof(diag));
	ck_assert_int_eq(fp_alloc_get(al, q, 2, &r, &n, &diag), FP_E_NOSPC);
	ck_assert_uint_eq(diag.req, 1);
	ck_assert_uint_eq(diag.need, 8);
	ck_assert_uint_eq(diag.avail, 6);
	ck_assert_uint_eq(diag.last_cl, 0);
}
END_TEST

/* FP_E_NOSPC for directory clusters and under -c too. */
START_TEST(test_no_space_dir_and_contiguous)
{
	const struct fp_alloc_run *r;
	size_t n;

	/* 3 free (100 .. 102) */
	only_free((const uint32_t[]){ 100, 102, 0 });
	vol_open(0);
	ck_assert_int_eq(get(5, 0, FP_ALLOC_DIR, &r, &n), FP_E_NOSPC);
	ck_assert_uint_eq(diag.req, 0);
	ck_assert_uint_eq(diag.need, 5);
	ck_assert_uint_eq(diag.avail, 3);
	/* the directory took what there was: 0 free now */
	ck_assert_int_eq(get(4, 0, FP_ALLOC_CONTIG, &r, &n), FP_E_NOSPC);
	ck_assert_uint_eq(diag.need, 4);
	ck_assert_uint_eq(diag.avail, 0);
	ck_assert_uint_eq(diag.last_cl, 0);
}
END_TEST

/* FP_E_NORUN: the largest run, or the free clusters after the chain. */
START_TEST(test_no_run_numbers)
{
	const struct fp_alloc_run *r;
	size_t n;

	/*
	 * Free: 11 .. 12 (2), 20 .. 23 (4), 30 .. 32 (3): 9 in all.  -c
	 * with 5 for a new chain: no run of 5, the largest holds 4.  -c
	 * with 5 after a chain ending at 10: 2 free after it.  Neither took
	 * anything: 5 still fit two runs without -c.
	 */
	only_free((const uint32_t[]){ 11, 12, 20, 23, 30, 32, 0 });
	vol_open(0);
	ck_assert_int_eq(get(5, 0, FP_ALLOC_CONTIG, &r, &n), FP_E_NORUN);
	ck_assert_uint_eq(diag.need, 5);
	ck_assert_uint_eq(diag.avail, 4);
	ck_assert_uint_eq(diag.last_cl, 0);
	ck_assert_int_eq(get(5, 10, FP_ALLOC_CONTIG, &r, &n), FP_E_NORUN);
	ck_assert_uint_eq(diag.need, 5);
	ck_assert_uint_eq(diag.avail, 2);
	ck_assert_uint_eq(diag.last_cl, 10);
	/* more than the 9 free: FP_E_NOSPC, not FP_E_NORUN */
	ck_assert_int_eq(get(10, 10, FP_ALLOC_CONTIG, &r, &n), FP_E_NOSPC);
	ck_assert_uint_eq(diag.need, 10);
	ck_assert_uint_eq(diag.avail, 9);
	ck_assert_int_eq(get(5, 0, 0, &r, &n), FP_OK);
	ck_assert_uint_eq(n, 2);
	run_is(&r[0], 20, 4);
	run_is(&r[1], 11, 1);
}
END_TEST

/*
 * 1 if cluster @cl lies on an FP_ALLOC_ALIGN boundary of a host file in
 * which cluster 2 is at @cl2_off.
 */
static int host_aligned(uint64_t cl2_off, uint32_t cl)
{
	return (cl2_off + (uint64_t)(cl - 2) * SEC) % FP_ALLOC_ALIGN == 0;
}

#define ALIGN_CL (FP_ALLOC_ALIGN / SEC)		/* 128 clusters */
#define ALIGN_NEED (FP_ALLOC_ALIGN_MIN / SEC)	/* 2048 clusters, 1 MiB */

/*
 * Host alignment: a new chain of 1 MiB or more starts on the first
 * cluster on a 64 KiB boundary of the host file from the hint.  Cluster 2
 * is at DATA (98,816 bytes), so cluster 65 is at 131,072, and 65 + 2048
 * at 1,179,648.  A smaller file takes the first fit as before, and the
 * gap left before 65 goes to directories.
 */
START_TEST(test_host_aligned_new_chain)
{
	vol_open(0);
	fp_alloc_set_host(al, DATA, SEC);
	get_one(ALIGN_NEED, 0, 0, 65, ALIGN_NEED);
	ck_assert(host_aligned(DATA, 65));
	get_one(ALIGN_NEED + 1, 0, 0, 65 + ALIGN_NEED, ALIGN_NEED + 1);
	ck_assert(host_aligned(DATA, 65 + ALIGN_NEED));
	get_one(ALIGN_NEED - 1, 0, 0, 65 + 2 * ALIGN_NEED + 1,
		ALIGN_NEED - 1);
	ck_assert(!host_aligned(DATA, 65 + 2 * ALIGN_NEED + 1));
	get_one(1, 0, FP_ALLOC_DIR, 2, 1);
	/* -c: aligned too */
	get_one(ALIGN_NEED, 0, FP_ALLOC_CONTIG, 65 + 3 * ALIGN_NEED,
		ALIGN_NEED);
	ck_assert(host_aligned(DATA, 65 + 3 * ALIGN_NEED));
}
END_TEST

/* Where cluster 2 lies in the host file, for test_host_aligned_anywhere. */
static const uint64_t cl2_offs[] = {
	DATA, DATA + 512, 1536, 65536, (1u << 20) + DATA,
	(2u << 20) + 65024, 4096
};

/* The volume anywhere in the host file: the first boundary from 2. */
START_TEST(test_host_aligned_anywhere)
{
	uint64_t cl2 = cl2_offs[_i];
	const struct fp_alloc_run *r;
	size_t n;

	vol_open(0);
	fp_alloc_set_host(al, cl2, SEC);
	ck_assert_int_eq(get(ALIGN_NEED, 0, 0, &r, &n), FP_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(r[0].count, ALIGN_NEED);
	ck_assert(host_aligned(cl2, r[0].start));
	ck_assert_uint_lt(r[0].start, 2 + ALIGN_CL);
}
END_TEST

/*
 * Alignment moves a file only inside the run first fit chose, and only
 * when that run also holds the clusters skipped and the room the later
 * requests want: else the file goes where it went without alignment.
 */
START_TEST(test_host_align_falls_back)
{
	struct fp_alloc_req q = { .need = ALIGN_NEED };
	const struct fp_alloc_run *r;
	size_t n;

	/* 2048 free at 10, 2175 (2048 + 127) at 3000 */
	only_free((const uint32_t[]){ 10, 10 + ALIGN_NEED - 1,
				      3000, 3000 + ALIGN_NEED + ALIGN_CL - 2,
				      0 });
	vol_open(0);
	fp_alloc_set_host(al, DATA, SEC);
	get_one(ALIGN_NEED, 0, FP_ALLOC_CONTIG, 10, ALIGN_NEED);
	ck_assert(!host_aligned(DATA, 10));
	get_one(ALIGN_NEED, 0, 0, 3009, ALIGN_NEED);
	ck_assert(host_aligned(DATA, 3009));
	/* room for the later requests: aligned when the run holds it */
	teardown();
	setup();
	vol_open(0);
	fp_alloc_set_host(al, DATA, SEC);
	/* free from 2 on: one run of MAX_CL - 1 */
	q.room_after = MAX_CL;
	ck_assert_int_eq(fp_alloc_get(al, &q, 1, &r, &n, &diag), FP_OK);
	run_is(&r[0], 2, ALIGN_NEED);
	/* free from 2050: one cluster short of the room */
	q.room_after = MAX_CL - 2049 - (ALIGN_NEED + ALIGN_CL - 1) + 1;
	ck_assert_int_eq(fp_alloc_get(al, &q, 1, &r, &n, &diag), FP_OK);
	run_is(&r[0], 2050, ALIGN_NEED);
	/* free from 4098: just the room; 4161 is on a boundary */
	q.room_after = MAX_CL - 4097 - (ALIGN_NEED + ALIGN_CL - 1);
	ck_assert_int_eq(fp_alloc_get(al, &q, 1, &r, &n, &diag), FP_OK);
	run_is(&r[0], 4161, ALIGN_NEED);
	ck_assert(host_aligned(DATA, 4161));
}
END_TEST

/*
 * Alignment is for new chains only, placed from the hint: a chain goes on
 * right after its end, --place end takes the top; and it is off when no
 * cluster can lie on a boundary (cluster 2 off a sector of the host
 * file) or when every cluster does alike (64 KiB clusters).
 */
START_TEST(test_host_align_not_applied)
{
	use(2, 10);
	vol_open(0);
	fp_alloc_set_host(al, DATA, SEC);
	get_one(ALIGN_NEED, 10, 0, 11, ALIGN_NEED);
	get_one(ALIGN_NEED, 0, FP_ALLOC_END, MAX_CL - ALIGN_NEED + 1,
		ALIGN_NEED);
	teardown();
	setup();
	vol_open(0);
	fp_alloc_set_host(al, DATA + 100, SEC);
	get_one(ALIGN_NEED, 0, 0, 2, ALIGN_NEED);
	fp_alloc_set_host(al, 0, FP_ALLOC_ALIGN);
	get_one(ALIGN_NEED, 0, 0, 2 + ALIGN_NEED, ALIGN_NEED);
}
END_TEST

static Suite *alloc_suite(void)
{
	Suite *s = suite_create("alloc");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_continue_after_last_cluster);
	tcase_add_test(tc, test_first_fit_from_hint);
	tcase_add_test(tc, test_largest_runs_when_no_fit);
	tcase_add_test(tc, test_contiguous_new_chain);
	tcase_add_test(tc, test_place_end);
	tcase_add_test(tc, test_place_end_contiguous_skips_short_runs);
	tcase_add_test(tc, test_directory_cluster);
	tcase_add_test(tc, test_largest_run);
	tcase_add_test(tc, test_largest_run_full);
	tcase_add_test(tc, test_free_after);
	tcase_add_test(tc, test_fsinfo_after);
	tcase_add_test(tc, test_reserved_never_taken);
	tcase_add_test(tc, test_no_space_numbers);
	tcase_add_test(tc, test_no_space_dir_and_contiguous);
	tcase_add_test(tc, test_no_run_numbers);
	tcase_add_test(tc, test_host_aligned_new_chain);
	tcase_add_loop_test(tc, test_host_aligned_anywhere, 0,
			    sizeof(cl2_offs) / sizeof(cl2_offs[0]));
	tcase_add_test(tc, test_host_align_falls_back);
	tcase_add_test(tc, test_host_align_not_applied);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(alloc_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
