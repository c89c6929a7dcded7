/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fuzz_plan.c - libFuzzer: plan and commit into an arbitrary image. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_img.h"
#include "plan.h"
#include "verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

/*
 * The first byte picks the options; the rest is the image as fuzz_img.h
 * describes it.  Whatever the image, planning and committing must not
 * crash, and a commit into an image that verified without errors must
 * verify without errors again.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static const struct fp_req reqs[] = {
		{ "/d/A long name \xc3\xa9.bin", 70000 },
		{ "/x.txt", 3000 },
		{ "/d/e/f", 1 },
	};
	struct fp_plan_opts o;
	struct fp_report *before = NULL, *after = NULL;
	struct fp_plan_diag diag;
	struct fp_plan *plan;
	struct fp_img *img;
	struct fp_fs *fs;

	if (fuzz_plan_input(data, len, &o, &img))
		return 0;
	if (fp_verify(img, &before) == FP_OK && fp_fs_open(img, &fs) == FP_OK) {
		if (fp_plan_build(fs, &o, reqs, 3, &plan, &diag) == FP_OK) {
			if (fp_plan_commit(plan, 1) == FP_OK &&
			    fp_report_verdict(before, 0) == FP_OK &&
			    fp_verify(img, &after) == FP_OK)
				assert(fp_report_verdict(after, 0) == FP_OK);
			fp_plan_free(plan);
		}
		fp_fs_free(fs);
	}
	fp_report_free(before);
	fp_report_free(after);
	fp_img_close(img);
	return 0;
}
