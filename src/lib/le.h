/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* le.h - little-endian loads and stores on byte buffers. */
#ifndef FP_LE_H
#define FP_LE_H

#include <stdint.h>
#include <string.h>

/*
 * On a little-endian host a load is one unaligned move (memcpy); GCC 12
 * does not always merge the byte loads of the portable form into one,
 * and the FAT passes of --verify do little else than these loads.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FP_LE_HOST 1
#else
#define FP_LE_HOST 0
#endif

static inline uint16_t fp_le16(const uint8_t *p)
{
	uint16_t v;

	if (FP_LE_HOST) {
		memcpy(&v, p, sizeof(v));
		return v;
	}
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t fp_le32(const uint8_t *p)
{
	uint32_t v;

	if (FP_LE_HOST) {
		memcpy(&v, p, sizeof(v));
		return v;
	}
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) |
	       ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* Two FAT32 entries: @p's first four bytes are the low half. */
static inline uint64_t fp_le64(const uint8_t *p)
{
	uint64_t v;

	if (FP_LE_HOST) {
		memcpy(&v, p, sizeof(v));
		return v;
	}
	return (uint64_t)fp_le32(p) | (uint64_t)fp_le32(p + 4) << 32;
}

static inline void fp_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void fp_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void fp_put_le64(uint8_t *p, uint64_t v)
{
	if (FP_LE_HOST) {
		memcpy(p, &v, sizeof(v));
		return;
	}
	fp_put_le32(p, (uint32_t)v);
	fp_put_le32(p + 4, (uint32_t)(v >> 32));
}

#endif
