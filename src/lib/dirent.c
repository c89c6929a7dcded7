/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * dirent.c - a single directory entry's 32 bytes (dir.h): its first
 * cluster, a short entry encoded whole, and the date and time fields of
 * a moment.
 */
#include "dir.h"

#include <string.h>
#include <time.h>

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

void fp_dir_timestamp(int64_t epoch, int utc, uint16_t *date, uint16_t *time,
		      uint8_t *tenth)
{
	struct tm tm;
	time_t t = (time_t)epoch;
	int ok = (int64_t)t == epoch &&
		 (utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)) != NULL;

	/* Beyond what time_t or struct tm holds: the end @epoch's sign says. */
	if (ok ? tm.tm_year < 80 : epoch < 0) {
		*date = (0 << 9) | (1 << 5) | 1;
		*time = 0;
		*tenth = 0;
		return;
	}
	if (!ok || tm.tm_year > 207) {
		*date = (uint16_t)((127 << 9) | (12 << 5) | 31);
		*time = (uint16_t)((23 << 11) | (59 << 5) | 29);
		*tenth = 100;
		return;
	}
	*date = (uint16_t)(((tm.tm_year - 80) << 9) | ((tm.tm_mon + 1) << 5) |
			   tm.tm_mday);
	*time = (uint16_t)((tm.tm_hour << 11) | (tm.tm_min << 5) |
			   (tm.tm_sec / 2));
	*tenth = (uint8_t)((tm.tm_sec % 2) * 100);
}
