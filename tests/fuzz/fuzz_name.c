/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fuzz_name.c - libFuzzer: UTF-8 names to long names, 8.3 names, aliases. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "name.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

/* A valid name survives UTF-8 -> UCS-2 -> LFN slots -> UTF-8 unchanged. */
static void round_trip(const char *s, size_t len, const uint16_t *u,
		       size_t n)
{
	uint8_t ent[32], sum = 0x5A;
	uint16_t back[FP_LFN_MAX + FP_LFN_CHARS];
	char out[3 * FP_LFN_MAX + 1];
	unsigned ord;

	for (ord = 1; ord <= fp_name_lfn_slots(n); ord++) {
		fp_name_lfn_encode(ent, u, n, ord, sum);
		assert(ent[11] == 0x0F && ent[13] == sum);
		fp_name_lfn_decode(ent, back + (ord - 1) * FP_LFN_CHARS);
	}
	assert(!memcmp(back, u, n * sizeof(*u)));
	assert(fp_name_to_utf8(u, n, out, sizeof(out)) == len);
	assert(!memcmp(out, s, len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	uint16_t u[FP_LFN_MAX];
	uint8_t sfn[11], basis[11], tail[11], ntres;
	size_t n, i;
	int lossy;

	if (fp_name_from_utf8((const char *)data, len, u, &n))
		return 0;
	round_trip((const char *)data, len, u, n);
	if (fp_name_check(u, n))
		return 0;
	if (fp_name_to_sfn(u, n, sfn, &ntres))
		assert(!(ntres & ~(FP_NT_LOWER_BASE | FP_NT_LOWER_EXT)));
	fp_name_alias_basis(u, n, basis, &lossy);
	fp_name_alias_tail(basis, 1 + (uint32_t)(len % 999999), tail);
	for (i = 0; i < 11; i++)
		assert(tail[i] >= 0x20 && tail[i] != '.' && tail[i] != '/');
	(void)fp_name_lfn_sum(tail);
	return 0;
}
