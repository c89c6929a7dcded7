/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* edit_label.h - the volume label: read it, check a new one. */
#ifndef FP_EDIT_LABEL_H
#define FP_EDIT_LABEL_H

#include <stdint.h>

#include "fp_err.h"
#include "fs.h"

/*
 * A new label @name (UTF-8) as the 11 bytes a label entry and BS_VolLab
 * hold, into @lab (fp_name_label_encode(): code page 437, case kept, as
 * mkfs.fat 4.2 checks it), *remove 0; an empty @name removes the label:
 * @lab "NO NAME    ", *remove 1.  A name that is not valid UTF-8 or that
 * fp_name_label_encode() refuses: FP_E_NAME or FP_E_NAMELEN.  @lab and
 * *remove are set only on success.
 */
enum fp_err fp_edit_label_check(const char *name, uint8_t lab[11],
				int *remove);

/*
 * The label of @fs as Windows, blkid (LABEL) and mlabel -s show it: the
 * root directory's first label entry (the volume bit without the
 * directory bit), into @lab, *found 1; without one, *found 0 (the boot
 * sector's BS_VolLab is not the label then: blkid shows it as
 * LABEL_FATBOOT only, mlabel says the volume has no label).  Reads the
 * root directory; a chain that is broken gives FP_E_CORRUPT.
 */
enum fp_err fp_edit_label_read(struct fp_fs *fs, uint8_t lab[11],
			       int *found);

#endif
