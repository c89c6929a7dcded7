/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* bpb.c - decode and validate the boot sector, BPB and FSInfo sector. */
#include <string.h>

#include "bpb.h"
#include "bpb_layout.h"
#include "le.h"

/* Boot sector and BPB values (the offsets: bpb_layout.h). */
#define BOOT_SIG_EXT		0x29	/* BS_VolID and BS_VolLab follow */
#define BOOT_SIG_HELD		0x28	/* BS_VolID only (DOS 3.4) */
#define BS_SIGNATURE		FP_BOOT_SIG_OFF

#define EXT_FLAGS_NO_MIRROR	0x0080
#define EXT_FLAGS_ACTIVE	0x000F

#define FAT12_MAX_CLUSTERS	4084u
#define FAT32_MAX_CLUSTERS	0x0FFFFFF5u	/* highest cluster 0x0FFFFFF6 */

static int is_pow2(uint32_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

static int has_signature(const uint8_t *sec)
{
	return sec[BS_SIGNATURE] == 0x55 && sec[BS_SIGNATURE + 1] == 0xAA;
}

/* An x86 short or near jump, as DOS and Windows boot sectors start. */
static int has_x86_jump(const uint8_t *sec)
{
	return sec[BS_JMP_BOOT] == 0xEB || sec[BS_JMP_BOOT] == 0xE9;
}

int fp_bpb_maybe_mbr(const uint8_t *sec)
{
	return has_signature(sec) && !has_x86_jump(sec);
}

/*
 * Fields common to all FAT types; fills the sizes in @g.  The FAT count
 * has no limit but its byte (255): Linux mounts such volumes, and the
 * layout check in compute_layout() bounds the space they take.
 */
static enum fp_err decode_common(const uint8_t *sec, struct fp_geom *g)
{
	uint32_t tot16 = fp_le16(sec + BPB_TOT_SEC16);

	g->sec_len = fp_le16(sec + BPB_BYTES_PER_SEC);
	if (!is_pow2(g->sec_len) || g->sec_len < FP_SECTOR_MIN ||
	    g->sec_len > FP_SECTOR_MAX)
		return FP_E_BPB;
	g->sec_per_clus = sec[BPB_SEC_PER_CLUS];
	if (!is_pow2(g->sec_per_clus))	/* 1..128 in a byte */
		return FP_E_BPB;
	g->clus_len = g->sec_len * g->sec_per_clus;	/* <= 4096 * 128 */
	if (g->clus_len > FP_CLUSTER_MAX)
		return FP_E_BPB;
	g->reserved_secs = fp_le16(sec + BPB_RSVD_SEC_CNT);
	g->fat_count = sec[BPB_NUM_FATS];
	if (g->reserved_secs == 0 || g->fat_count == 0)
		return FP_E_BPB;
	g->media = sec[BPB_MEDIA];
	if (g->media != 0xF0 && g->media < 0xF8)
		return FP_E_BPB;
	g->total_secs = tot16 ? tot16 : fp_le32(sec + BPB_TOT_SEC32);
	if (g->total_secs == 0)
		return FP_E_BPB;
	g->root_entries = fp_le16(sec + BPB_ROOT_ENT_CNT);
	return FP_OK;
}

/* A FAT32 sector number field: 0 and 0xFFFF mean "none". */
static enum fp_err decode_sec_field(const uint8_t *sec, unsigned field,
				    const struct fp_geom *g, uint32_t *out)
{
	uint32_t v = fp_le16(sec + field);

	if (v == 0xFFFF)
		v = 0;
	if (v >= g->reserved_secs)
		return FP_E_BPB;
	*out = v;
	return FP_OK;
}

/*
 * The volume label and serial number of the boot sector: there when the
 * extended boot signature at @sig_off is 0x29 (BS_VolID at @id_off,
 * BS_VolLab at @lab_off).  A signature of 0x28 (DOS 3.4: the record ends
 * after the serial, boot code follows) under a BS_FilSysType that still
 * says "FAT" is what --label writes while it changes the root's label
 * entry: label_held.
 */
static void decode_label(const uint8_t *sec, unsigned sig_off,
			 unsigned id_off, unsigned lab_off, struct fp_geom *g)
{
	g->has_label = sec[sig_off] == BOOT_SIG_EXT;
	g->label_held = sec[sig_off] == BOOT_SIG_HELD &&
			!memcmp(sec + lab_off + sizeof(g->label), "FAT", 3);
	memcpy(g->label, sec + lab_off, sizeof(g->label));
	g->serial = g->has_label ? fp_le32(sec + id_off) : 0;
}

/*
 * The FAT32 extension.  The root cluster is range-checked later, once the
 * cluster count is known.  The active FAT number (ExtFlags bits 0-3)
 * only means something when mirroring is off, so it is only checked then.
 * An FSInfo sector that is also the backup boot sector is refused: writing
 * one would overwrite the other.
 */
static enum fp_err decode_fat32(const uint8_t *sec, struct fp_geom *g)
{
	enum fp_err err;

	g->fat_secs = fp_le32(sec + BPB_FAT_SZ32);
	if (g->fat_secs == 0 || g->root_entries != 0)
		return FP_E_BPB;
	if (fp_le16(sec + BPB_FS_VER) != 0)
		return FP_E_BPB;
	g->root_cl = fp_le32(sec + BPB_ROOT_CLUS);
	err = decode_sec_field(sec, BPB_FS_INFO, g, &g->fsinfo_sec);
	if (!err)
		err = decode_sec_field(sec, BPB_BK_BOOT_SEC, g, &g->backup_sec);
	if (err)
		return err;
	if (g->fsinfo_sec && g->fsinfo_sec == g->backup_sec)
		return FP_E_BPB;
	g->ext_flags = fp_le16(sec + BPB_EXT_FLAGS);
	g->mirror = !(g->ext_flags & EXT_FLAGS_NO_MIRROR);
	g->active_fat = g->mirror ? 0 : (g->ext_flags & EXT_FLAGS_ACTIVE);
	if (g->active_fat >= g->fat_count)
		return FP_E_BPB;
	g->state = sec[BS32_RESERVED1];
	decode_label(sec, BS32_BOOT_SIG, BS32_VOL_ID, BS32_VOL_LAB, g);
	return FP_OK;
}

static enum fp_err decode_fat16(const uint8_t *sec, struct fp_geom *g)
{
	g->fat_secs = fp_le16(sec + BPB_FAT_SZ16);
	/* whole sectors, as the FAT spec asks and Linux checks */
	if (g->root_entries == 0 ||
	    (uint64_t)g->root_entries * FP_DIRENT_LEN % g->sec_len)
		return FP_E_BPB;
	g->mirror = 1;
	g->active_fat = 0;
	g->state = sec[BS_RESERVED1];
	decode_label(sec, BS_BOOT_SIG, BS_VOL_ID, BS_VOL_LAB, g);
	return FP_OK;
}

/*
 * Region layout, all in 64 bits: at most 65535 reserved + 255 * (2^32 - 1)
 * FAT + 4096 root sectors, times 4096 bytes, cannot overflow.  root_len
 * is the bytes of the root entries (0 on FAT32, where root_off == data_off).
 */
static enum fp_err compute_layout(struct fp_geom *g)
{
	uint64_t root_bytes = (uint64_t)g->root_entries * FP_DIRENT_LEN;
	uint64_t root_secs = (root_bytes + g->sec_len - 1) / g->sec_len;
	uint64_t meta_secs = g->reserved_secs +
			     (uint64_t)g->fat_count * g->fat_secs + root_secs;
	uint64_t clusters;

	if (meta_secs >= g->total_secs)
		return FP_E_BPB;
	clusters = (g->total_secs - meta_secs) / g->sec_per_clus;
	if (clusters == 0 || clusters > UINT32_MAX)
		return FP_E_BPB;
	g->cluster_count = (uint32_t)clusters;
	g->fat_off = (uint64_t)g->reserved_secs * g->sec_len;
	g->fat_len = (uint64_t)g->fat_secs * g->sec_len;
	g->root_off = g->fat_off + g->fat_count * g->fat_len;
	g->root_len = root_bytes;
	g->data_off = g->root_off + root_secs * g->sec_len;
	g->vol_len = g->total_secs * g->sec_len;
	return FP_OK;
}

/* FAT12/16 by cluster count; every FAT must hold entries 0..max. */
static enum fp_err check_type(struct fp_geom *g)
{
	uint64_t entries = (uint64_t)g->cluster_count + 2;
	uint64_t need;

	if (g->type != FP_FAT32) {
		if (g->cluster_count <= FAT12_MAX_CLUSTERS)
			g->type = FP_FAT12;
		else if (g->cluster_count < FP_FAT32_MIN_CLUSTERS)
			g->type = FP_FAT16;
		else
			return FP_E_BPB;
	} else if (g->cluster_count > FAT32_MAX_CLUSTERS) {
		return FP_E_BPB;
	}
	if (g->type == FP_FAT12)
		need = (entries * 3 + 1) / 2;
	else
		need = entries * (g->type / 8);
	if (need > g->fat_len)
		return FP_E_BPB;
	if (g->type == FP_FAT32 &&
	    (g->root_cl < 2 || g->root_cl > fp_geom_max_cl(g)))
		return FP_E_BPB;
	return FP_OK;
}

/*
 * Neither the jump nor the 0x55AA signature is required: Linux's vfat
 * checks neither, and Atari volumes (mkfs.fat -A) have a 68000 branch
 * and no signature.  A sector is a FAT boot sector when its BPB
 * validates fully; what tells it from an MBR is fp_fs_locate()'s
 * business (fp_bpb_maybe_mbr()).  A bad field is FP_E_BPB once the
 * sector shows it means to be FAT: an x86 jump and the signature, or the
 * fields common to every FAT type in range; else FP_E_NOTFAT.
 */
enum fp_err fp_bpb_decode(const uint8_t *sec, uint64_t img_len,
			  struct fp_geom *g)
{
	struct fp_geom t;
	enum fp_err err;

	memset(&t, 0, sizeof(t));
	err = decode_common(sec, &t);
	if (err)
		return has_x86_jump(sec) && has_signature(sec) ? err :
		       FP_E_NOTFAT;
	if (fp_le16(sec + BPB_FAT_SZ16) == 0) {
		t.type = FP_FAT32;
		err = decode_fat32(sec, &t);
	} else {
		err = decode_fat16(sec, &t);
	}
	if (!err)
		err = compute_layout(&t);
	if (!err)
		err = check_type(&t);
	if (err)
		return err;
	if (t.vol_len > img_len)
		return FP_E_TRUNC;
	*g = t;
	return FP_OK;
}

void fp_bpb_fsinfo_decode(const uint8_t *sec, struct fp_fsinfo *fi)
{
	fi->trusted = fp_le32(sec + FSI_LEAD_SIG) == FSI_LEAD_SIG_VAL &&
		      fp_le32(sec + FSI_STRUC_SIG) == FSI_STRUC_SIG_VAL;
	fi->valid = fi->trusted &&
		    fp_le32(sec + FSI_TRAIL_SIG) == FSI_TRAIL_SIG_VAL;
	fi->free_count = fp_le32(sec + FSI_FREE_COUNT);
	fi->next_free = fp_le32(sec + FSI_NXT_FREE);
}

void fp_bpb_fsinfo_encode(uint8_t *sec, const struct fp_fsinfo *fi)
{
	fp_put_le32(sec + FSI_FREE_COUNT, fi->free_count);
	fp_put_le32(sec + FSI_NXT_FREE, fi->next_free);
}
