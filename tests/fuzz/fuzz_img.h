/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fuzz_img.h - the image fuzzers' inputs: an image by its first bytes. */
#ifndef FUZZ_IMG_H
#define FUZZ_IMG_H

#include <stddef.h>
#include <stdint.h>

#include "image.h"
#include "plan.h"

#define FUZZ_IMG_MAX (64u << 20)	/* largest image length taken */

/*
 * An input is a 4-byte little-endian image length, then the image's first
 * bytes; the rest of the image reads as zeros, and bytes past the length
 * are dropped.  Seeds are mkfs.fat images with their trailing zeros cut
 * off, so that an input is kilobytes where the image is megabytes: the
 * fuzzer copies, hashes and mutates every byte of every input.  Returns
 * 0 with *out set, or -1 (input too short, length over FUZZ_IMG_MAX).
 */
int fuzz_img_open(const uint8_t *data, size_t len, struct fp_img **out);

/*
 * A planning input: a byte whose bits 0-3 set keep_size, zero,
 * contiguous and parents in *o (a fixed time, UTC), then an image as
 * above.  Returns 0 with *o and *out set, or -1.
 */
int fuzz_plan_input(const uint8_t *data, size_t len, struct fp_plan_opts *o,
		    struct fp_img **out);

#endif
