/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fuzz_open.c - libFuzzer: locate, open and check an arbitrary image. */
#include <stddef.h>
#include <stdint.h>

#include "fs.h"
#include "fuzz_img.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct fp_fs_diag diag;
	struct fp_locate loc;
	struct fp_img *img;
	struct fp_fs *fs;

	if (fuzz_img_open(data, len, &img))
		return 0;
	if (fp_fs_locate(img, 0, &loc) == FP_OK &&
	    fp_img_set_window(img, loc.off, loc.len) == FP_OK &&
	    fp_fs_open(img, &fs) == FP_OK) {
		(void)fp_fs_check(fs, &diag);
		fp_fs_free(fs);
	}
	fp_img_close(img);
	return 0;
}
