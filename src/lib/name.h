/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* name.h - FAT names: 8.3 rules, ~N aliases, LFN slots, UTF-8 <-> UCS-2. */
#ifndef FP_NAME_H
#define FP_NAME_H

#include <stddef.h>
#include <stdint.h>

#include "fp_err.h"

#define FP_LFN_MAX 255		/* UTF-16 units in a long name */
#define FP_LFN_CHARS 13		/* UTF-16 units in one LFN slot */
#define FP_LFN_ORD 0		/* byte offset: ordinal | FP_LFN_LAST */
#define FP_LFN_SUM 13		/* byte offset: checksum of the short name */
#define FP_LFN_TYPE 12		/* byte offset: type, 0 */
#define FP_LFN_CLUSTER 26	/* byte offset: cluster field, 0 (16 bits) */
#define FP_LFN_LAST 0x40	/* ordinal flag: the last (highest) slot */
#define FP_LFN_ORD_MASK 0x1F	/* ordinal without FP_LFN_LAST */
#define FP_NT_LOWER_BASE 0x08	/* DIR_NTRes: base name is lower case */
#define FP_NT_LOWER_EXT 0x10	/* DIR_NTRes: extension is lower case */

/*
 * Decode @len bytes of UTF-8 at @s into UCS-2 at @out (room for FP_LFN_MAX
 * units).  Malformed or overlong UTF-8 and U+0000 give FP_E_NAME, code
 * points above U+FFFF FP_E_NONBMP, more than FP_LFN_MAX units
 * FP_E_NAMELEN.  *count is set only on success.
 */
enum fp_err fp_name_from_utf8(const char *s, size_t len, uint16_t *out,
			      size_t *count);

/*
 * The byte length (1 to 4) of the UTF-8 sequence that starts @s, of @len
 * > 0 bytes; 0 when the bytes there start none: a stray or missing
 * continuation byte, an overlong form, an encoded surrogate (ED A0 80) or
 * a code point above U+10FFFF, as fp_name_from_utf8() refuses them.
 */
size_t fp_name_utf8_len(const char *s, size_t len);

/*
 * Encode @count UCS-2 units as NUL-terminated UTF-8 into @out of @out_len
 * bytes (3 * FP_LFN_MAX + 1 always suffice); surrogate pairs are joined,
 * unpaired surrogates and U+0000 become U+FFFD.  If @out is too small the
 * text is cut at a character boundary.  Returns the length without the NUL.
 */
size_t fp_name_to_utf8(const uint16_t *u, size_t count, char *out,
		       size_t out_len);

/*
 * Check a long name: not empty, not "." or "..", no control characters,
 * none of  " * / : < > ? \ |  and no trailing dot or space (FP_E_NAME);
 * more than FP_LFN_MAX units give FP_E_NAMELEN.  A device name that
 * Windows reserves, in any case and with any extension (CON, PRN, AUX,
 * NUL, CONIN$, CONOUT$, COM1-COM9, LPT1-LPT9, COM and LPT with a
 * superscript 1, 2 or 3: "nul.txt", "Com1.tar.gz"), gives FP_E_RESERVED.
 */
enum fp_err fp_name_check(const uint16_t *u, size_t count);

/* Upper-case one UCS-2 unit (ASCII, Latin-1, Latin Extended-A, Greek,
 * Cyrillic), as VFAT lookups compare names.  One unit to one unit only
 * (no "ss" for U+00DF); U+00B5, U+0131 and U+017F are left alone. */
uint16_t fp_name_upcase(uint16_t c);

/*
 * A 64-bit hash (FNV-1a) of @u upper-cased as fp_name_upcase() folds, so
 * that names fp_name_equal() calls equal hash alike.
 */
uint64_t fp_name_hash(const uint16_t *u, size_t count);

/* 1 if the two names are equal ignoring case as fp_name_upcase() folds. */
int fp_name_equal(const uint16_t *a, size_t an, const uint16_t *b,
		  size_t bn);

/*
 * If the name can be stored as a bare 8.3 entry (every character valid in
 * a short name, base 1..8 and extension 0..3 characters, at most one dot,
 * and each part wholly lower or wholly upper case), fill @sfn (11 bytes,
 * space padded, upper case) and *ntres (FP_NT_LOWER_* bits) and return 1.
 * Otherwise return 0: the name needs a long name and an alias.
 */
int fp_name_to_sfn(const uint16_t *u, size_t count, uint8_t sfn[11],
		   uint8_t *ntres);

/*
 * The basis of an 8.3 alias for a long name, as Windows makes it: upper
 * case, spaces and leading dots dropped, characters invalid in short names
 * (and all non-ASCII) replaced by '_', base cut to 8 and extension (after
 * the last dot) to 3 characters, other dots dropped; an empty base
 * becomes "_".  *lossy is 1 when information was lost (a character
 * dropped, replaced or cut), i.e. when a numeric tail is required; a name
 * that only fails fp_name_to_sfn() by mixing cases is not lossy.
 */
void fp_name_alias_basis(const uint16_t *u, size_t count, uint8_t basis[11],
			 int *lossy);

/*
 * Apply numeric tail @n (1 .. 999999) to @basis: "BASE~N", the base cut so
 * that base plus "~N" fits 8 characters.  Extension unchanged.
 */
void fp_name_alias_tail(const uint8_t basis[11], uint32_t n, uint8_t out[11]);

/*
 * A second basis for the aliases of @u (@count units), as Windows makes
 * one after ~4: the first two characters of @basis (fewer if it is
 * shorter), then four upper-case hex digits of a hash of the long name
 * (FNV-1a over its UTF-16 units, from an offset basis of 0x811C9DC5 ^
 * @round, folded to 16 bits), the extension of @basis.  A caller whose
 * first round is taken tries the next @round.
 */
void fp_name_alias_hashed(const uint8_t basis[11], const uint16_t *u,
			  size_t count, uint32_t round, uint8_t out[11]);

/* Checksum of an 8.3 name as stored in LFN slots. */
uint8_t fp_name_lfn_sum(const uint8_t sfn[11]);

/* Number of LFN slots for a name of @count units. */
static inline unsigned fp_name_lfn_slots(size_t count)
{
	return (unsigned)((count + FP_LFN_CHARS - 1) / FP_LFN_CHARS);
}

/*
 * Encode LFN slot @ord (1-based, slot 1 holds units 0..12) of name @u into
 * the 32-byte entry @ent: ordinal (| FP_LFN_LAST on the last slot), attribute
 * 0x0F, checksum @sum; after the name one 0x0000 then 0xFFFF padding.
 */
void fp_name_lfn_encode(uint8_t ent[32], const uint16_t *u, size_t count,
			unsigned ord, uint8_t sum);

/* The 13 units of an LFN slot, in order. */
void fp_name_lfn_decode(const uint8_t ent[32], uint16_t units[13]);

/*
 * The name of a short entry as UCS-2 ("NAME.EXT", trailing spaces cut, a
 * leading 0x05 read as 0xE5, A-Z lower-cased where @ntres says; bytes
 * >= 0x80 are read in code page 437, as Linux reads them by default, and
 * keep their case).  Returns the unit count (<= 12).
 */
size_t fp_name_sfn_decode(const uint8_t sfn[11], uint8_t ntres,
			  uint16_t out[12]);

/*
 * A cheap key for the name @u (@count units): names that fp_name_equal()
 * calls equal get equal keys (so distinct keys prove distinct names), but
 * other names may share a key more often than they share fp_name_hash().
 * A name that fits 8.3 once upper-cased is keyed by its 11 bytes; any
 * other by fp_name_hash().
 */
uint64_t fp_name_key(const uint16_t *u, size_t count);

/*
 * fp_name_key() of the name fp_name_sfn_decode() gives for @sfn, with any
 * ntres: for most short names from their bytes, without decoding them.
 */
uint64_t fp_name_sfn_key(const uint8_t sfn[11]);

/*
 * 1 if the stored short name @sfn is invalid, as the checker reports it
 * (bad-name): a leading space, a control character, a lower-case letter
 * or one of  " * + , . / : ; < = > ? [ \ ] |  (a leading 0x05 stands for
 * 0xE5 and is allowed).
 */
int fp_name_sfn_bad(const uint8_t sfn[11]);

/*
 * 1 if the volume label @lab (11 bytes, as a label entry or BS_VolLab
 * stores it) is invalid, as the checker reports it (bad-label): empty
 * (all spaces), a leading space, a control character or one of
 * " * + , . / : ; < = > ? [ \ ] |  as fsck.fat 4.2 reads it.  Lower-case
 * letters are allowed (mkfs.fat -n and fatlabel write them), and so are
 * bytes from 0x80 on, code page characters (fsck.fat 4.2 refuses those).
 */
int fp_name_label_bad(const uint8_t lab[11]);

/* A first byte that marks a directory entry deleted. */
#define FP_NAME_DELETED 0xE5

/*
 * The volume label @u (@count units) as a label entry and BS_VolLab store
 * it, into @lab: each unit as its code page 437 byte (the code page the
 * names use), padded with spaces, case kept, as mkfs.fat 4.2 keeps it.
 * As mkfs.fat refuses them: more than 11 bytes (FP_E_NAMELEN); a control
 * character, one of  * ? . , ; : / \ | + = < > [ ] "  , a character code
 * page 437 lacks, a leading space (FP_E_NAME); also a first byte 0xE5
 * (sigma), which reads as a deleted entry.  An empty label (@count 0)
 * gives FP_E_NAME.  @lab is set only on success.
 */
enum fp_err fp_name_label_encode(const uint16_t *u, size_t count,
				 uint8_t lab[11]);

/*
 * The label @lab as UCS-2 for a message: trailing spaces cut, bytes from
 * 0x80 on in code page 437, control characters as U+FFFD.  Returns the
 * unit count (<= 11).
 */
size_t fp_name_label_decode(const uint8_t lab[11], uint16_t out[11]);

/*
 * 1 if a long name of @count units (those before its first 0) is one that
 * Linux cannot list (bad-long-name): empty or holding a '/' (its readdir
 * of the whole directory fails with EIO), "." or ".." (listed as a second
 * dot entry, which find, tar and rsync skip), or holding a surrogate that
 * is not one of a pair (listed and opened without it, so that the names
 * of Linux and of fatprealloc differ).  A name over FP_LFN_MAX units is
 * not one of them: Linux lists and opens up to 260.
 */
int fp_name_lfn_bad(const uint16_t *units, size_t count);

#endif
