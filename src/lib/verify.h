/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* verify.h - a read-only, fsck-style check of a FAT volume. */
#ifndef FP_VERIFY_H
#define FP_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "bpb.h"
#include "findings.h"
#include "fp_err.h"
#include "fs.h"
#include "image.h"
#include "problem.h"
#include "progress.h"

/*
 * Check the volume on @img without writing.  Returns FP_OK when a report
 * was made (whatever it found), or the error that made checking impossible
 * (unreadable image, no FAT boot sector, unusable BPB).
 */
enum fp_err fp_verify(struct fp_img *img, struct fp_report **out);

/* The same, telling @prog (NULL: nobody) how far the check is. */
enum fp_err fp_verify_progress(struct fp_img *img,
			       const struct fp_progress *prog,
			       struct fp_report **out);

#endif
