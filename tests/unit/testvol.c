/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* testvol.c - a FAT16 volume built by hand in memory, for unit tests. */
#include "testvol.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "le.h"

uint8_t *vol;

void put_fat(uint32_t cl, uint16_t v)
{
	fp_put_le16(vol + FAT0 + 2 * cl, v);
	fp_put_le16(vol + FAT1 + 2 * cl, v);
}

void testvol_make(void)
{
	uint8_t *b;

	vol = calloc(1, (size_t)TOTAL * SEC);
	ck_assert_ptr_nonnull(vol);
	b = vol;
	b[0] = 0xEB; b[1] = 0x3C; b[2] = 0x90;
	memcpy(b + 3, "MSWIN4.1", 8);
	fp_put_le16(b + 11, SEC);
	b[13] = 1;
	fp_put_le16(b + 14, 1);
	b[16] = 2;
	fp_put_le16(b + 17, 512);
	fp_put_le16(b + 19, TOTAL);
	b[21] = 0xF8;
	fp_put_le16(b + 22, FATSZ);
	b[38] = 0x29;
	memcpy(b + 43, "NO NAME    FAT16   ", 19);
	b[510] = 0x55; b[511] = 0xAA;
	put_fat(0, 0xFFF8);
	put_fat(1, 0xFFFF);
}

void testvol_free(void)
{
	free(vol);
	vol = NULL;
}
