/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* sha256.h - SHA-256 (FIPS 180-4), streaming, with an x86 SHA-NI path. */
#ifndef FP_SHA256_H
#define FP_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "fp_err.h"

#define FP_SHA256_LEN 32	/* bytes of a digest */
#define FP_SHA256_HEX 65	/* its hex form with the NUL */

/* How the blocks are compressed. */
enum fp_sha256_impl {
	FP_SHA256_C,		/* portable C, every host */
	FP_SHA256_SHANI,	/* x86-64 SHA extensions (with SSE4.1) */
};

/*
 * A hash under way: set up with fp_sha256_init(), fed with
 * fp_sha256_update() any number of times, read with fp_sha256_final().
 * Held by value; its fields are sha256.c's.
 */
struct fp_sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes fed */
	uint8_t buf[64];	/* a block begun, len % 64 bytes of it */
	void (*blocks)(uint32_t h[8], const uint8_t *p, size_t n);
};

/*
 * The fastest implementation this CPU runs (asks the CPU: call it once
 * per run, not per file).
 */
enum fp_sha256_impl fp_sha256_best(void);

/* 1 if this CPU and build can run @impl. */
int fp_sha256_has(enum fp_sha256_impl impl);

/* Start a hash with @impl; FP_E_INVAL when fp_sha256_has() says no. */
enum fp_err fp_sha256_init(struct fp_sha256 *s, enum fp_sha256_impl impl);

/* Feed @len bytes at @p. */
void fp_sha256_update(struct fp_sha256 *s, const void *p, size_t len);

/* The digest of what was fed into @out; @s must be set up again after. */
void fp_sha256_final(struct fp_sha256 *s, uint8_t out[FP_SHA256_LEN]);

/* @d as 64 lower-case hex digits and a NUL into @hex. */
void fp_sha256_hex(const uint8_t d[FP_SHA256_LEN], char hex[FP_SHA256_HEX]);

#endif
