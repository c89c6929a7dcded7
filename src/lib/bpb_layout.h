/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * bpb_layout.h - byte offsets of the boot sector, BPB and FSInfo fields
 * (Microsoft FAT specification), for the library files that read or
 * write them: bpb.c decodes, mkfs.c writes, edit_label.c changes the
 * label.  Private to the library.
 */
#ifndef FP_BPB_LAYOUT_H
#define FP_BPB_LAYOUT_H

#define BS_JMP_BOOT		0
#define BS_OEM_NAME		3
#define BPB_BYTES_PER_SEC	11
#define BPB_SEC_PER_CLUS	13
#define BPB_RSVD_SEC_CNT	14
#define BPB_NUM_FATS		16
#define BPB_ROOT_ENT_CNT	17
#define BPB_TOT_SEC16		19
#define BPB_MEDIA		21
#define BPB_FAT_SZ16		22
#define BPB_SEC_PER_TRK		24
#define BPB_NUM_HEADS		26
#define BPB_HIDD_SEC		28
#define BPB_TOT_SEC32		32

/* FAT12/16 extended boot record */
#define BS_DRV_NUM		36
#define BS_RESERVED1		37	/* the "state" byte */
#define BS_BOOT_SIG		38
#define BS_VOL_ID		39
#define BS_VOL_LAB		43
#define BS_FIL_SYS_TYPE		54

/* FAT32 BPB and extended boot record */
#define BPB_FAT_SZ32		36
#define BPB_EXT_FLAGS		40
#define BPB_FS_VER		42
#define BPB_ROOT_CLUS		44
#define BPB_FS_INFO		48
#define BPB_BK_BOOT_SEC		50
#define BS32_DRV_NUM		64
#define BS32_RESERVED1		65	/* the "state" byte */
#define BS32_BOOT_SIG		66
#define BS32_VOL_ID		67
#define BS32_VOL_LAB		71

/* FSInfo sector */
#define FSI_LEAD_SIG		0
#define FSI_STRUC_SIG		484
#define FSI_FREE_COUNT		488
#define FSI_NXT_FREE		492
#define FSI_TRAIL_SIG		508
#define FSI_LEAD_SIG_VAL	0x41615252u
#define FSI_STRUC_SIG_VAL	0x61417272u
#define FSI_TRAIL_SIG_VAL	0xAA550000u

#endif
