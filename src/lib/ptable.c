/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* ptable.c - MBR and GPT partition tables: find the FAT volume's bytes. */
#include "ptable.h"

#include <stdlib.h>
#include <string.h>

#include "le.h"
#include "util.h"

/* MBR and EBR sector: four 16-byte entries and a signature. */
#define MBR_SEC_LEN		512u
#define MBR_TABLE		446
#define MBR_ENT_LEN		16
#define MBR_ENT_COUNT		4
#define MBR_SIG			510	/* 0x55 0xAA */

/* Fields of an MBR entry. */
#define MBR_ENT_BOOT		0	/* 0x00, or 0x80 for active */
#define MBR_ENT_TYPE		4	/* system id */
#define MBR_ENT_LBA		8	/* le32 first sector */
#define MBR_ENT_SECS		12	/* le32 sector count */

#define MBR_TYPE_EMPTY		0x00
#define MBR_TYPE_GPT		0xEE	/* protective MBR */
#define MBR_FIRST_LOGICAL	5
#define MBR_MAX_LOGICAL		128	/* EBRs in one chain, logicals in all */

/* GPT header (UEFI specification, "GPT Header"). */
#define GPT_SIG			0	/* "EFI PART" */
#define GPT_REVISION		8	/* le32, major version in bits 16-31 */
#define GPT_HDR_SIZE		12	/* le32 bytes covered by the CRC */
#define GPT_HDR_CRC		16	/* le32, computed with this field 0 */
#define GPT_MY_LBA		24	/* le64 LBA of this header */
#define GPT_ALT_LBA		32	/* le64 LBA of the other header */
#define GPT_FIRST_USABLE	40	/* le64 first LBA partitions may use */
#define GPT_LAST_USABLE		48	/* le64 last one, inclusive */
#define GPT_ENT_LBA		72	/* le64 first LBA of the entry array */
#define GPT_ENT_COUNT		80	/* le32 entries in the array */
#define GPT_ENT_SIZE		84	/* le32 bytes per entry */
#define GPT_ENT_CRC		88	/* le32 CRC of the whole array */
#define GPT_HDR_MIN		92	/* bytes defined by revision 1.0 */

/* Fields of a GPT partition entry. */
#define GPT_E_TYPE		0	/* type GUID, 16 bytes */
#define GPT_E_FIRST		32	/* le64 first LBA */
#define GPT_E_LAST		40	/* le64 last LBA, inclusive */

#define GPT_SIG_LEN		8
#define GPT_GUID_LEN		16
#define GPT_REV_MAJOR		1
#define GPT_MAX_ENTRIES		1024u
#define GPT_ENT_MIN		128u
#define GPT_ENT_MAX		4096u
#define GPT_ENT_ALIGN		8u

/* Type GUIDs as stored: the first three fields little-endian. */
static const uint8_t gpt_basic_data[GPT_GUID_LEN] = {	/* EBD0A0A2-... */
	0xA2, 0xA0, 0xD0, 0xEB, 0xE5, 0xB9, 0x33, 0x44,
	0x87, 0xC0, 0x68, 0xB6, 0xB7, 0x26, 0x99, 0xC7,
};

static const uint8_t gpt_efi_system[GPT_GUID_LEN] = {	/* C12A7328-... */
	0x28, 0x73, 0x2A, 0xC1, 0x1F, 0xF8, 0xD2, 0x11,
	0xBA, 0x4B, 0x00, 0xA0, 0xC9, 0x3E, 0xC9, 0x3B,
};

/* Logical block sizes probed for a GPT, in order. */
static const uint32_t gpt_blk_lens[] = { 512, 4096 };

/* CRC-32 of one nibble, reflected polynomial 0xEDB88320. */
static const uint32_t crc_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
	0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
	0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t fp_ptable_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t i;

	crc = ~crc;
	for (i = 0; i < len; i++) {
		crc ^= p[i];
		crc = (crc >> 4) ^ crc_nibble[crc & 0xF];
		crc = (crc >> 4) ^ crc_nibble[crc & 0xF];
	}
	return ~crc;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)fp_le32(p) | ((uint64_t)fp_le32(p + 4) << 32);
}

/* The partitions and table spans found so far; both go to the fp_ptable. */
struct part_list {
	struct fp_part *v;
	size_t count;
	size_t cap;
	struct fp_span *t;
	size_t t_count;
	size_t t_cap;
};

static enum fp_err part_add(struct part_list *l, const struct fp_part *p)
{
	enum fp_err err = fp_grow(&l->v, &l->cap, l->count, sizeof(*l->v));

	if (err)
		return err;
	l->v[l->count++] = *p;
	return FP_OK;
}

/* Note that bytes [off, off + len) hold the table; @len 0 adds nothing. */
static enum fp_err span_add(struct part_list *l, uint64_t off, uint64_t len)
{
	enum fp_err err;

	if (len == 0)
		return FP_OK;
	err = fp_grow(&l->t, &l->t_cap, l->t_count, sizeof(*l->t));
	if (err)
		return err;
	l->t[l->t_count].off = off;
	l->t[l->t_count++].len = len;
	return FP_OK;
}

/*
 * Blocks [first, first + count) of @blk bytes as bytes; the range must be
 * non-empty and end within @img_len.
 */
static enum fp_err extent(uint64_t first, uint64_t count, uint32_t blk,
			  uint64_t img_len, struct fp_part *p)
{
	uint64_t blocks = img_len / blk;

	if (count == 0 || first > blocks || count > blocks - first)
		return FP_E_PTABLE;
	p->off = first * blk;
	p->len = count * blk;
	return FP_OK;
}

/* --- MBR --- */

struct mbr_ent {
	uint8_t boot;
	uint8_t type;
	uint32_t lba;
	uint32_t secs;
};

static void mbr_ent_decode(const uint8_t *sec, unsigned i, struct mbr_ent *e)
{
	const uint8_t *p = sec + MBR_TABLE + i * MBR_ENT_LEN;

	e->boot = p[MBR_ENT_BOOT];
	e->type = p[MBR_ENT_TYPE];
	e->lba = fp_le32(p + MBR_ENT_LBA);
	e->secs = fp_le32(p + MBR_ENT_SECS);
}

static int mbr_has_sig(const uint8_t *sec)
{
	return sec[MBR_SIG] == 0x55 && sec[MBR_SIG + 1] == 0xAA;
}

static int mbr_is_extended(uint8_t type)
{
	return type == 0x05 || type == 0x0F || type == 0x85;
}

static int mbr_is_fat(uint8_t type)
{
	switch (type) {
	case 0x01: case 0x04: case 0x06: case 0x0B: case 0x0C: case 0x0E:
	case 0xEF:
		return 1;
	default:
		return 0;
	}
}

/*
 * What sector 0 holds.  A boot flag other than 0x00/0x80 means the bytes
 * are boot code (a FAT boot sector also ends in 0x55AA), not a table.
 */
static enum fp_ptable_kind mbr_classify(const uint8_t *sec)
{
	enum fp_ptable_kind kind = FP_PT_NONE;
	struct mbr_ent e;
	unsigned i;

	if (!mbr_has_sig(sec))
		return FP_PT_NONE;
	for (i = 0; i < MBR_ENT_COUNT; i++) {
		mbr_ent_decode(sec, i, &e);
		if (e.boot != 0x00 && e.boot != 0x80)
			return FP_PT_NONE;
	}
	for (i = 0; i < MBR_ENT_COUNT; i++) {
		mbr_ent_decode(sec, i, &e);
		if (e.type == MBR_TYPE_GPT)
			return FP_PT_GPT;
		if (e.type != MBR_TYPE_EMPTY)
			kind = FP_PT_MBR;
	}
	return kind;
}

enum fp_ptable_kind fp_ptable_claims(const uint8_t *sec, uint64_t img_len)
{
	enum fp_ptable_kind kind = FP_PT_NONE;
	struct mbr_ent e;
	unsigned i;

	if (mbr_classify(sec) == FP_PT_NONE)
		return FP_PT_NONE;
	for (i = 0; i < MBR_ENT_COUNT; i++) {
		mbr_ent_decode(sec, i, &e);
		if (e.type == MBR_TYPE_EMPTY || e.secs == 0 || e.lba == 0 ||
		    e.lba >= img_len / MBR_SEC_LEN)
			continue;
		if (e.type == MBR_TYPE_GPT)
			return FP_PT_GPT;
		kind = FP_PT_MBR;
	}
	return kind;
}

/* Add the partition @e describes, its start relative to sector @base. */
static enum fp_err mbr_add(struct fp_img *img, const struct mbr_ent *e,
			   uint64_t base, unsigned number,
			   struct part_list *l)
{
	struct fp_part p;
	enum fp_err err;

	memset(&p, 0, sizeof(p));
	p.number = number;
	p.mbr_type = e->type;
	p.fat_type = mbr_is_fat(e->type);
	err = extent(base + e->lba, e->secs, MBR_SEC_LEN, fp_img_len(img), &p);
	if (err)
		return err;
	return part_add(l, &p);
}

static enum fp_err mbr_read_sec(struct fp_img *img, uint64_t lba,
				uint8_t *sec)
{
	enum fp_err err = fp_img_read(img, lba * MBR_SEC_LEN, sec,
				      MBR_SEC_LEN);

	return err == FP_E_TRUNC ? FP_E_PTABLE : err;
}

/*
 * Follow the EBR chain of the extended partition @ext.  Each EBR holds
 * the logical partition in slot 0 (start relative to the EBR) and the
 * link to the next EBR in slot 1 (start relative to @ext).  The chain may
 * go backwards on disk (fdisk appends a new logical to the chain wherever
 * it lies), so a loop is found by remembering every EBR seen; a chain is
 * at most MBR_MAX_LOGICAL EBRs long, and so is the sum of all logicals.
 * A first EBR without a signature is an extended partition never used.
 */
static enum fp_err mbr_chain(struct fp_img *img, const struct mbr_ent *ext,
			     unsigned *next, struct part_list *l)
{
	uint64_t seen[MBR_MAX_LOGICAL];
	uint8_t sec[MBR_SEC_LEN];
	uint64_t cur = ext->lba;
	struct mbr_ent logical, link;
	enum fp_err err;
	size_t n, i;

	for (n = 0; n < MBR_MAX_LOGICAL; n++) {
		if (cur < ext->lba || cur - ext->lba >= ext->secs)
			return FP_E_PTABLE;
		for (i = 0; i < n; i++)
			if (seen[i] == cur)
				return FP_E_PTABLE;
		seen[n] = cur;
		err = mbr_read_sec(img, cur, sec);
		if (!err)
			err = span_add(l, cur * MBR_SEC_LEN, MBR_SEC_LEN);
		if (err)
			return err;
		if (!mbr_has_sig(sec))
			return n == 0 ? FP_OK : FP_E_PTABLE;
		mbr_ent_decode(sec, 0, &logical);
		mbr_ent_decode(sec, 1, &link);
		if (logical.type != MBR_TYPE_EMPTY) {
			if (mbr_is_extended(logical.type) ||
			    *next >= MBR_FIRST_LOGICAL + MBR_MAX_LOGICAL)
				return FP_E_PTABLE;
			err = mbr_add(img, &logical, cur, (*next)++, l);
			if (err)
				return err;
		}
		if (link.type == MBR_TYPE_EMPTY)
			return FP_OK;
		if (!mbr_is_extended(link.type))
			return FP_E_PTABLE;
		cur = (uint64_t)ext->lba + link.lba;
	}
	return FP_E_PTABLE;
}

/* Primaries 1-4 by slot, then the logicals of each extended partition. */
static enum fp_err mbr_read(struct fp_img *img, const uint8_t *sec,
			    struct part_list *l)
{
	unsigned next = MBR_FIRST_LOGICAL;
	struct mbr_ent e;
	enum fp_err err;
	unsigned i;

	err = span_add(l, 0, MBR_SEC_LEN);
	if (err)
		return err;
	for (i = 0; i < MBR_ENT_COUNT; i++) {
		mbr_ent_decode(sec, i, &e);
		if (e.type == MBR_TYPE_EMPTY)
			continue;
		err = mbr_add(img, &e, 0, i + 1, l);
		if (err)
			return err;
	}
	for (i = 0; i < MBR_ENT_COUNT; i++) {
		mbr_ent_decode(sec, i, &e);
		if (!mbr_is_extended(e.type))
			continue;
		err = mbr_chain(img, &e, &next, l);
		if (err)
			return err;
	}
	return FP_OK;
}

/* --- GPT --- */

struct gpt_hdr {
	uint32_t blk;		/* logical block size */
	uint64_t my_lba, alt_lba;
	uint64_t first_usable, last_usable;
	uint64_t ent_lba;
	uint32_t ent_count;
	uint32_t ent_size;
	uint32_t ent_crc;
};

/* CRC of the @size header bytes at @b with the CRC field read as zero. */
static uint32_t gpt_hdr_crc(const uint8_t *b, uint32_t size)
{
	static const uint8_t zero[4];
	uint32_t crc;

	crc = fp_ptable_crc32(0, b, GPT_HDR_CRC);
	crc = fp_ptable_crc32(crc, zero, sizeof(zero));
	return fp_ptable_crc32(crc, b + GPT_HDR_CRC + 4,
			       size - GPT_HDR_CRC - 4);
}

/*
 * Check the header @b read from block @lba of @h->blk bytes, and that its
 * entry array lies within @img_len.  Fills the rest of @h.
 */
static enum fp_err gpt_hdr_decode(const uint8_t *b, uint64_t lba,
				  uint64_t img_len, struct gpt_hdr *h)
{
	uint32_t size = fp_le32(b + GPT_HDR_SIZE);
	uint64_t blocks = img_len / h->blk;
	uint64_t arr_len;

	if (memcmp(b + GPT_SIG, "EFI PART", GPT_SIG_LEN) != 0 ||
	    fp_le32(b + GPT_REVISION) >> 16 != GPT_REV_MAJOR ||
	    size < GPT_HDR_MIN || size > h->blk ||
	    gpt_hdr_crc(b, size) != fp_le32(b + GPT_HDR_CRC) ||
	    le64(b + GPT_MY_LBA) != lba)
		return FP_E_PTABLE;
	h->my_lba = lba;
	h->alt_lba = le64(b + GPT_ALT_LBA);
	h->first_usable = le64(b + GPT_FIRST_USABLE);
	h->last_usable = le64(b + GPT_LAST_USABLE);
	h->ent_lba = le64(b + GPT_ENT_LBA);
	h->ent_count = fp_le32(b + GPT_ENT_COUNT);
	h->ent_size = fp_le32(b + GPT_ENT_SIZE);
	h->ent_crc = fp_le32(b + GPT_ENT_CRC);
	if (h->ent_size < GPT_ENT_MIN || h->ent_size > GPT_ENT_MAX ||
	    h->ent_size % GPT_ENT_ALIGN != 0 ||
	    h->ent_count > GPT_MAX_ENTRIES)
		return FP_E_PTABLE;
	/* At most 1024 * 4096 bytes: no overflow, no absurd allocation. */
	arr_len = (uint64_t)h->ent_count * h->ent_size;
	if (h->ent_lba > blocks || arr_len > img_len - h->ent_lba * h->blk)
		return FP_E_PTABLE;
	return FP_OK;
}

/*
 * Load the header at block @lba and its entry array (*arr, owned by the
 * caller) when both are valid; FP_E_PTABLE when not.
 */
static enum fp_err gpt_load(struct fp_img *img, uint64_t lba,
			    struct gpt_hdr *h, uint8_t **arr)
{
	uint8_t *b = NULL, *a = NULL;
	size_t arr_len;
	enum fp_err err;

	b = malloc(h->blk);
	if (!b)
		return FP_E_NOMEM;
	err = fp_img_read(img, lba * h->blk, b, h->blk);
	if (!err)
		err = gpt_hdr_decode(b, lba, fp_img_len(img), h);
	if (err)
		goto out;
	arr_len = (size_t)h->ent_count * h->ent_size;
	a = malloc(arr_len ? arr_len : 1);
	if (!a) {
		err = FP_E_NOMEM;
		goto out;
	}
	err = fp_img_read(img, h->ent_lba * h->blk, a, arr_len);
	if (!err && fp_ptable_crc32(0, a, arr_len) != h->ent_crc)
		err = FP_E_PTABLE;
	if (err)
		goto out;
	*arr = a;
	a = NULL;
out:
	free(a);
	free(b);
	return err == FP_E_TRUNC ? FP_E_PTABLE : err;
}

static int gpt_guid_is_zero(const uint8_t *g)
{
	unsigned i;

	for (i = 0; i < GPT_GUID_LEN; i++)
		if (g[i])
			return 0;
	return 1;
}

/* The used entries of a loaded array, numbered by index from 1. */
static enum fp_err gpt_parts(const struct gpt_hdr *h, const uint8_t *arr,
			     uint64_t img_len, struct part_list *l)
{
	uint64_t blocks = img_len / h->blk;
	uint64_t first, last;
	const uint8_t *e;
	struct fp_part p;
	enum fp_err err;
	uint32_t i;

	for (i = 0; i < h->ent_count; i++) {
		e = arr + (size_t)i * h->ent_size;
		if (gpt_guid_is_zero(e + GPT_E_TYPE))
			continue;
		first = le64(e + GPT_E_FIRST);
		last = le64(e + GPT_E_LAST);
		if (last < first || last >= blocks)
			return FP_E_PTABLE;
		memset(&p, 0, sizeof(p));
		p.number = i + 1;
		memcpy(p.gpt_type, e + GPT_E_TYPE, GPT_GUID_LEN);
		p.fat_type = !memcmp(p.gpt_type, gpt_basic_data,
				     GPT_GUID_LEN) ||
			     !memcmp(p.gpt_type, gpt_efi_system,
				     GPT_GUID_LEN);
		err = extent(first, last - first + 1, h->blk, img_len, &p);
		if (!err)
			err = part_add(l, &p);
		if (err)
			return err;
	}
	return FP_OK;
}

/*
 * Try each block size for the header at LBA 1 (@backup 0) or at the last
 * LBA (@backup 1).  FP_E_PTABLE when no valid header and array is found.
 */
static enum fp_err gpt_find(struct fp_img *img, int backup,
			    struct gpt_hdr *h, uint8_t **arr)
{
	uint64_t blocks;
	enum fp_err err = FP_E_PTABLE;
	size_t i;

	for (i = 0; i < sizeof(gpt_blk_lens) / sizeof(gpt_blk_lens[0]); i++) {
		memset(h, 0, sizeof(*h));
		h->blk = gpt_blk_lens[i];
		blocks = fp_img_len(img) / h->blk;
		if (blocks < 3)
			continue;
		err = gpt_load(img, backup ? blocks - 1 : 1, h, arr);
		if (err != FP_E_PTABLE)
			return err;
	}
	return err;
}

/*
 * Where the GPT lies, for @h read from an image of @img_len bytes: the
 * protective MBR, the header, its entry array, the other header, and the
 * blocks outside the usable range (all of them when first > last).
 */
static enum fp_err gpt_spans(const struct gpt_hdr *h, uint64_t img_len,
			     struct part_list *l)
{
	uint64_t blocks = img_len / h->blk;
	uint64_t arr = (uint64_t)h->ent_count * h->ent_size;
	uint64_t first = h->first_usable < blocks ? h->first_usable : blocks;
	enum fp_err err;

	err = span_add(l, 0, h->blk);
	if (!err)
		err = span_add(l, h->my_lba * h->blk, h->blk);
	if (!err)	/* gpt_hdr_decode() bounded the array by the image */
		err = span_add(l, h->ent_lba * h->blk,
			       (arr + h->blk - 1) / h->blk * h->blk);
	if (!err && h->alt_lba < blocks)
		err = span_add(l, h->alt_lba * h->blk, h->blk);
	if (!err)
		err = span_add(l, 0, first * h->blk);
	if (!err && h->last_usable < blocks - 1)
		err = span_add(l, (h->last_usable + 1) * h->blk,
			       (blocks - 1 - h->last_usable) * h->blk);
	return err;
}

/*
 * The primary header, else the backup.  A valid header whose partitions
 * are bad is an error, not a reason to look at the other copy.
 */
static enum fp_err gpt_read(struct fp_img *img, struct part_list *l,
			    int *backup, uint32_t *sec_len)
{
	uint8_t *arr = NULL;
	struct gpt_hdr h;
	enum fp_err err;
	int used = 0;

	err = gpt_find(img, 0, &h, &arr);
	if (err == FP_E_PTABLE) {
		used = 1;
		err = gpt_find(img, 1, &h, &arr);
	}
	if (err)
		goto out;
	err = gpt_parts(&h, arr, fp_img_len(img), l);
	if (!err)
		err = gpt_spans(&h, fp_img_len(img), l);
	if (!err) {
		*backup = used;
		*sec_len = h.blk;
	}
out:
	free(arr);
	return err;
}

/* --- public --- */

enum fp_err fp_ptable_read(struct fp_img *img, struct fp_ptable *pt)
{
	struct fp_ptable t = { .kind = FP_PT_NONE };
	struct part_list l = { NULL, 0, 0, NULL, 0, 0 };
	uint8_t mbr[MBR_SEC_LEN];
	enum fp_err err = FP_OK;

	if (fp_img_len(img) >= MBR_SEC_LEN) {
		err = fp_img_read(img, 0, mbr, sizeof(mbr));
		if (err)
			goto out;
		t.kind = mbr_classify(mbr);
	}
	if (t.kind == FP_PT_GPT) {
		err = gpt_read(img, &l, &t.gpt_backup, &t.sec_len);
	} else if (t.kind == FP_PT_MBR) {
		t.sec_len = MBR_SEC_LEN;
		err = mbr_read(img, mbr, &l);
	}
	if (err)
		goto out;
	t.parts = l.v;
	t.count = l.count;
	t.table = l.t;
	t.table_count = l.t_count;
	l.v = NULL;
	l.t = NULL;
	*pt = t;
out:
	free(l.v);
	free(l.t);
	return err;
}

const struct fp_part *fp_ptable_find(const struct fp_ptable *pt,
				     unsigned number)
{
	size_t i;

	if (!pt)
		return NULL;
	for (i = 0; i < pt->count; i++)
		if (pt->parts[i].number == number)
			return &pt->parts[i];
	return NULL;
}

/* 1 if [a, a + alen) and [b, b + blen) share a byte; *first is the first. */
static int shares(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen,
		  uint64_t *first)
{
	if (a >= b + blen || b >= a + alen)
		return 0;
	*first = a > b ? a : b;
	return 1;
}

void fp_ptable_overlap(const struct fp_ptable *pt, const struct fp_part *p,
		       struct fp_overlap *o)
{
	const struct fp_part *q;
	size_t i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < pt->table_count && !o->found; i++)
		o->found = shares(p->off, p->len, pt->table[i].off,
				  pt->table[i].len, &o->off);
	for (i = 0; i < pt->count && !o->found; i++) {
		q = &pt->parts[i];
		if (q->number == p->number ||
		    (p->number >= MBR_FIRST_LOGICAL &&
		     mbr_is_extended(q->mbr_type)))
			continue;
		o->found = shares(p->off, p->len, q->off, q->len, &o->off);
		if (o->found)
			o->other = q->number;
	}
}

void fp_ptable_release(struct fp_ptable *pt)
{
	if (!pt)
		return;
	free(pt->parts);
	free(pt->table);
	memset(pt, 0, sizeof(*pt));
}
