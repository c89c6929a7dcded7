/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* sha256.c - SHA-256 (FIPS 180-4), streaming, with an x86 SHA-NI path. */
#include "sha256.h"

#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#define FP_HAVE_SHANI 1
#include <cpuid.h>
#include <immintrin.h>
#endif

/* FIPS 180-4, 4.2.2: the first 32 bits of the fractional parts of the
 * cube roots of the first 64 primes. */
static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b,
	0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
	0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7,
	0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152,
	0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
	0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
	0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
	0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* FIPS 180-4, 5.3.3: the initial hash value H(0). */
static const uint32_t H0[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static inline uint32_t ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static inline uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* ---- portable C (FIPS 180-4, 6.2.2) --------------------------------- */

/* One round: T1 and T2 of 6.2.2 step 3, the registers renamed by the
 * caller's argument order instead of moved. */
#define ROUND(a, b, c, d, e, f, g, h, k, w)				\
	do {								\
		uint32_t t1 = (h) + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + \
			      (((e) & (f)) ^ (~(e) & (g))) + (k) + (w); \
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) +	\
			      (((a) & (b)) ^ ((a) & (c)) ^ ((b) & (c))); \
		(d) += t1;						\
		(h) = t1 + t2;						\
	} while (0)

static void blocks_c(uint32_t h[8], const uint8_t *p, size_t n)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh, s0, s1;
	unsigned t;

	for (; n; n--, p += 64) {
		for (t = 0; t < 16; t++)
			w[t] = be32(p + 4 * t);
		for (t = 16; t < 64; t++) {
			s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^
			     (w[t - 15] >> 3);
			s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^
			     (w[t - 2] >> 10);
			w[t] = w[t - 16] + s0 + w[t - 7] + s1;
		}
		a = h[0]; b = h[1]; c = h[2]; d = h[3];
		e = h[4]; f = h[5]; g = h[6]; hh = h[7];
		for (t = 0; t < 64; t += 8) {
			ROUND(a, b, c, d, e, f, g, hh, K[t], w[t]);
			ROUND(hh, a, b, c, d, e, f, g, K[t + 1], w[t + 1]);
			ROUND(g, hh, a, b, c, d, e, f, K[t + 2], w[t + 2]);
			ROUND(f, g, hh, a, b, c, d, e, K[t + 3], w[t + 3]);
			ROUND(e, f, g, hh, a, b, c, d, K[t + 4], w[t + 4]);
			ROUND(d, e, f, g, hh, a, b, c, K[t + 5], w[t + 5]);
			ROUND(c, d, e, f, g, hh, a, b, K[t + 6], w[t + 6]);
			ROUND(b, c, d, e, f, g, hh, a, K[t + 7], w[t + 7]);
		}
		h[0] += a; h[1] += b; h[2] += c; h[3] += d;
		h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
	}
}

/* ---- x86-64 SHA extensions ------------------------------------------ */

#ifdef FP_HAVE_SHANI
/*
 * The SHA-NI instructions keep the eight working variables in two
 * registers, ABEF and CDGH (a in the top lane), and sha256rnds2 does two
 * rounds from the low two lanes of W + K; sha256msg1/msg2 compute the
 * schedule's sigma0 and sigma1 parts four words at a time (Intel SDM,
 * "SHA Extensions").  W[t] for t >= 16 is built from the four groups of
 * four words before it, kept in a ring of four registers.
 */
__attribute__((target("sha,sse4.1,ssse3")))
static void blocks_shani(uint32_t h[8], const uint8_t *p, size_t n)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL,
					     0x0405060700010203LL);
	__m128i abef, cdgh, abef0, cdgh0, t, m, w[4];
	unsigned g;

	t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]),
			      0xB1);			/* b a d c */
	cdgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]),
				 0x1B);			/* h g f e */
	abef = _mm_alignr_epi8(t, cdgh, 8);		/* f e b a */
	cdgh = _mm_blend_epi16(cdgh, t, 0xF0);		/* h g d c */
	for (; n; n--, p += 64) {
		abef0 = abef;
		cdgh0 = cdgh;
		for (g = 0; g < 16; g++) {
			if (g < 4)
				w[g] = _mm_shuffle_epi8(_mm_loadu_si128(
					(const __m128i *)(p + 16 * g)), bswap);
			else
				w[g & 3] = _mm_sha256msg2_epu32(
					_mm_add_epi32(
						_mm_sha256msg1_epu32(
							w[g & 3],
							w[(g + 1) & 3]),
						_mm_alignr_epi8(w[(g + 3) & 3],
								w[(g + 2) & 3],
								4)),
					w[(g + 3) & 3]);
			m = _mm_add_epi32(w[g & 3], _mm_loadu_si128(
					  (const __m128i *)&K[4 * g]));
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m);
			abef = _mm_sha256rnds2_epu32(abef, cdgh,
						     _mm_shuffle_epi32(m, 0x0E));
		}
		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
	}
	t = _mm_shuffle_epi32(abef, 0x1B);		/* a b e f */
	cdgh = _mm_shuffle_epi32(cdgh, 0xB1);		/* g h c d */
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(t, cdgh, 0xF0));
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(cdgh, t, 8));
}
#endif

int fp_sha256_has(enum fp_sha256_impl impl)
{
#ifdef FP_HAVE_SHANI
	unsigned a, b, c, d;
#endif

	if (impl == FP_SHA256_C)
		return 1;
#ifdef FP_HAVE_SHANI
	if (impl != FP_SHA256_SHANI || !__get_cpuid(1, &a, &b, &c, &d) ||
	    !(c & bit_SSSE3) || !(c & bit_SSE4_1))
		return 0;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
#else
	return 0;
#endif
}

enum fp_sha256_impl fp_sha256_best(void)
{
	return fp_sha256_has(FP_SHA256_SHANI) ? FP_SHA256_SHANI : FP_SHA256_C;
}

enum fp_err fp_sha256_init(struct fp_sha256 *s, enum fp_sha256_impl impl)
{
	if (!fp_sha256_has(impl))	/* built for it is not enough */
		return FP_E_INVAL;
	memset(s, 0, sizeof(*s));
	memcpy(s->h, H0, sizeof(s->h));
	s->blocks = blocks_c;
#ifdef FP_HAVE_SHANI
	if (impl == FP_SHA256_SHANI)
		s->blocks = blocks_shani;
#endif
	if (impl != FP_SHA256_C && s->blocks == blocks_c)
		return FP_E_INVAL;
	return FP_OK;
}

void fp_sha256_update(struct fp_sha256 *s, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t have = s->len % 64, take;

	s->len += len;
	if (have) {
		take = 64 - have < len ? 64 - have : len;
		memcpy(s->buf + have, p, take);
		p += take;
		len -= take;
		if (have + take < 64)
			return;
		s->blocks(s->h, s->buf, 1);
	}
	if (len >= 64) {
		s->blocks(s->h, p, len / 64);
		p += len - len % 64;
		len %= 64;
	}
	memcpy(s->buf, p, len);
}

/* FIPS 180-4, 5.1.1: a 1 bit, zeros, the length in bits (64 bits). */
void fp_sha256_final(struct fp_sha256 *s, uint8_t out[FP_SHA256_LEN])
{
	uint64_t bits = s->len * 8;
	uint8_t pad[72] = { 0x80 };
	size_t n = 64 - s->len % 64, i;

	if (n < 9)
		n += 64;
	for (i = 0; i < 8; i++)
		pad[n - 1 - i] = (uint8_t)(bits >> (8 * i));
	fp_sha256_update(s, pad, n);
	for (i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t)(s->h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
		out[4 * i + 3] = (uint8_t)s->h[i];
	}
}

void fp_sha256_hex(const uint8_t d[FP_SHA256_LEN], char hex[FP_SHA256_HEX])
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < FP_SHA256_LEN; i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[2 * FP_SHA256_LEN] = '\0';
}
