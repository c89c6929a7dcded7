/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fuzz_img.c - the image fuzzers' inputs: an image by its first bytes. */
#include <string.h>

#include "fuzz_img.h"
#include "le.h"

int fuzz_img_open(const uint8_t *data, size_t len, struct fp_img **out)
{
	uint32_t img_len;

	if (len < 4)
		return -1;
	img_len = fp_le32(data);
	if (img_len > FUZZ_IMG_MAX)
		return -1;
	len -= 4;
	if (len > img_len)
		len = img_len;
	return fp_img_mem_pad(data + 4, len, img_len, out) == FP_OK ? 0 : -1;
}

int fuzz_plan_input(const uint8_t *data, size_t len, struct fp_plan_opts *o,
		    struct fp_img **out)
{
	if (len < 1 || fuzz_img_open(data + 1, len - 1, out))
		return -1;
	memset(o, 0, sizeof(*o));
	o->time = 1700000000;
	o->utc = 1;
	o->keep_size = data[0] & 1;
	o->zero = data[0] & 2;
	o->contiguous = data[0] & 4;
	o->parents = data[0] & 8;
	return 0;
}
