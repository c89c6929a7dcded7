/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fuzz_verify.c - libFuzzer: open and fully check an arbitrary image. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_img.h"
#include "verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct fp_report *r = NULL;
	struct fp_img *img;

	if (fuzz_img_open(data, len, &img))
		return 0;
	if (fp_verify(img, &r) == FP_OK)
		fp_report_free(r);
	fp_img_close(img);
	return 0;
}
