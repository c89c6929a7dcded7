/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * dirent.c - a single directory entry's 32 bytes (dir.h): its first
 * cluster, and a short entry encoded whole.
 */
#include "dir.h"

#include <string.h>

#include "le.h"

uint32_t fp_dirent_cluster(const uint8_t *ent, int fat32)
{
	uint32_t cl = fp_le16(ent + DIR_CLUS_LO);

	if (fat32)
		cl |= (uint32_t)fp_le16(ent + DIR_CLUS_HI) << 16;
	return cl;
}

void fp_dirent_set_cluster(uint8_t *ent, uint32_t cl, int fat32)
{
	fp_put_le16(ent + DIR_CLUS_LO, (uint16_t)cl);
	fp_put_le16(ent + DIR_CLUS_HI, fat32 ? (uint16_t)(cl >> 16) : 0);
}

void fp_dirent_encode(uint8_t *ent, const uint8_t sfn[11], uint8_t attr,
		      uint8_t ntres, uint32_t cl, uint32_t size, int fat32,
		      uint16_t date, uint16_t time, uint8_t tenth)
{
	memset(ent, 0, FP_DIRENT_LEN);
	memcpy(ent + DIR_NAME, sfn, 11);
	ent[DIR_ATTR] = attr;
	ent[DIR_NTRES] = ntres;
	ent[DIR_CRT_TENTH] = tenth;
	fp_put_le16(ent + DIR_CRT_TIME, time);
	fp_put_le16(ent + DIR_CRT_DATE, date);
	fp_put_le16(ent + DIR_ACC_DATE, date);
	fp_put_le16(ent + DIR_WRT_TIME, time);
	fp_put_le16(ent + DIR_WRT_DATE, date);
	fp_dirent_set_cluster(ent, cl, fat32);
	fp_put_le32(ent + DIR_SIZE, size);
}
