/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* testvol.h - a FAT16 volume built by hand in memory, for unit tests. */
#ifndef FP_TESTVOL_H
#define FP_TESTVOL_H

#include <stdint.h>

/*
 * 512-byte sectors, 1 sector a cluster, 1 reserved sector, 2 FATs of 80
 * sectors, 512 root entries (32 sectors), 20480 sectors in all: 20287
 * clusters (2 .. 20288).  Entries 0 and 1 hold 0xFFF8 and 0xFFFF.
 */
#define SEC 512u
#define TOTAL 20480u
#define FATSZ 80u
#define FAT0 (1u * SEC)
#define FAT1 (FAT0 + FATSZ * SEC)
#define ROOT (FAT1 + FATSZ * SEC)
#define DATA (ROOT + 32u * SEC)
#define CLUSTERS (TOTAL - 1u - 2u * FATSZ - 32u)

/* The volume's bytes (TOTAL * SEC), made by testvol_make(). */
extern uint8_t *vol;

void testvol_make(void);
void testvol_free(void);

/* Set FAT entry @cl in both copies. */
void put_fat(uint32_t cl, uint16_t v);

/* Byte offset of cluster @cl. */
static inline uint32_t testvol_cl_off(uint32_t cl)
{
	return DATA + (cl - 2) * SEC;
}

#endif
