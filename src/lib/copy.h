/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* copy.h - write a host file's bytes into runs of an image. */
#ifndef FP_COPY_H
#define FP_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "fp_err.h"
#include "image.h"
#include "progress.h"

/* A byte range of the image that receives file data. */
struct fp_copy_run {
	uint64_t off;
	uint64_t len;
};

/*
 * A copier: one bounded buffer (1 MiB) reused for every file, and what
 * was learnt of copy_file_range(2) on this image.  Owned by its caller.
 */
struct fp_copy;

enum fp_err fp_copy_new(struct fp_copy **out);

void fp_copy_free(struct fp_copy *c);

/*
 * Write the @size bytes of the host file @src into the @count runs @runs
 * of @img, one after another, then zeros to the end of the last run, so
 * that the whole of every cluster is defined.  Large spans go through
 * copy_file_range(2) where the image's filesystem takes it (only the data
 * of the source: its holes are written as zeros with fp_img_zero(), so
 * that they are data in the image), else pread/pwrite through the buffer;
 * a span that fits the buffer is one write, its zeros included.  The runs
 * must hold @size bytes and less than one cluster more.  Fails with
 * FP_E_SRC (errno in fp_copy_errno()) when @src cannot be opened or read,
 * FP_E_CHANGED when it is no longer a regular file of @size bytes, or the
 * image layer's error.
 */
enum fp_err fp_copy_file(struct fp_copy *c, struct fp_img *img,
			 const char *src, uint64_t size,
			 const struct fp_copy_run *runs, size_t count);

/*
 * fp_copy_file() of the @size bytes at @data (a file read before), with
 * the same writes, progress and zeros to the end of the last run.
 */
enum fp_err fp_copy_mem(struct fp_copy *c, struct fp_img *img,
			const uint8_t *data, uint64_t size,
			const struct fp_copy_run *runs, size_t count);

/*
 * Report the bytes of runs written to @tick (borrowed; NULL: none), on
 * top of @done already reported, in pieces of at most 16 MiB.
 */
void fp_copy_progress(struct fp_copy *c, struct fp_tick *tick,
		      uint64_t done);

/* errno of the last FP_E_SRC. */
int fp_copy_errno(const struct fp_copy *c);

/* Bytes written by copy_file_range(2) so far (for tests and -v). */
uint64_t fp_copy_offloaded(const struct fp_copy *c);

#endif
