/* fs.h - an opened volume: geometry, active FAT, free bitmap, FSInfo. */
#ifndef FP_FS_H
#define FP_FS_H

#include <stdint.h>

#include "bitmap.h"
#include "bpb.h"
#include "fat.h"
#include "fp_err.h"
#include "image.h"

/* An opened volume.  Borrows the image; owns everything else. */
struct fp_fs {
	struct fp_img *img;
	struct fp_geom geom;
	struct fp_fat fat;
	struct fp_bitmap bm;
	struct fp_fsinfo fsinfo;	/* valid only on FAT32 with FSInfo */
};

/* Read the boot sector, the active FAT and the free bitmap of @img. */
enum fp_err fp_fs_open(struct fp_img *img, struct fp_fs **out);

/* Details of a consistency refusal from fp_fs_check(). */
struct fp_fs_diag {
	uint32_t copy;		/* FP_E_FATDIFF: the copy that differs */
	uint32_t first_cl;	/* ... its first differing cluster */
	uint32_t diff_count;	/* ... and how many entries differ */
};

/*
 * Refuse an inconsistent volume: FP_E_DIRTY when it is marked dirty (boot
 * sector state bit 0, or the clean bit of FAT entry 1 cleared on FAT16/32),
 * FP_E_FATDIFF when mirrored FAT copies differ from the active one.
 */
enum fp_err fp_fs_check(struct fp_fs *fs, struct fp_fs_diag *diag);

void fp_fs_free(struct fp_fs *fs);

#endif
