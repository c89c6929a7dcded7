/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* mkfs.c - the geometry of a new FAT volume, and writing it empty. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpb_layout.h"
#include "dir.h"
#include "le.h"
#include "mkfs.h"

#define MIB (1024u * 1024u)
#define FAT32_AUTO_MIN (512ull * MIB)	/* FAT32 chosen from this size */
#define FAT12_AUTO_CLUSTER_MAX 4096u	/* FAT12 chosen up to this */
#define PREF_CLUSTER_SMALL 2048u	/* FAT12/16 start here */
#define ROOT_ENTRIES_DEFAULT 512u
#define RESERVED_FAT16 1u
#define RESERVED_FAT32 32u
#define MAX_SPC 128u

static int is_pow2_64(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

/* The cluster size FAT32 starts from, by volume size (Microsoft's table). */
static uint32_t fat32_pref(uint64_t vol_len)
{
	if (vol_len <= 8ull * 1024 * MIB)
		return 4096;
	if (vol_len <= 16ull * 1024 * MIB)
		return 8192;
	if (vol_len <= 32ull * 1024 * MIB)
		return 16384;
	return 32768;
}

/* Sectors a FAT of @type needs for @clusters data clusters. */
static uint64_t fat_secs_for(enum fp_fat_type type, uint64_t clusters,
			     uint32_t sec_len)
{
	uint64_t entries = clusters + 2;
	uint64_t bytes = type == FP_FAT12 ? (entries * 3 + 1) / 2 :
			 entries * (type / 8);

	return (bytes + sec_len - 1) / sec_len;
}

/* Data clusters left when each FAT takes @fat sectors. */
static uint64_t clusters_for(const struct fp_mkfs_geom *g, uint64_t fat)
{
	uint64_t meta = g->reserved_secs + (uint64_t)g->fat_count * fat +
			(uint64_t)g->root_entries * FP_DIRENT_LEN / g->sec_len;

	if (meta >= g->total_secs)
		return 0;
	return (g->total_secs - meta) / (g->clus_len / g->sec_len);
}

/*
 * The smallest FAT that holds every cluster it leaves: the clusters only
 * fall as the FAT grows, so "this FAT is large enough" holds from some
 * size on, found by bisection.
 */
static uint64_t smallest_fat(const struct fp_mkfs_geom *g)
{
	uint64_t lo = 1, hi = fat_secs_for(g->type, clusters_for(g, 0),
					   g->sec_len);

	if (hi < 1)
		hi = 1;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (fat_secs_for(g->type, clusters_for(g, mid), g->sec_len) <=
		    mid)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static enum fp_err refuse(struct fp_mkfs_diag *d, enum fp_mkfs_why why,
			  uint64_t figure, enum fp_fat_type type)
{
	d->why = why;
	d->figure = figure;
	d->type = type;
	return FP_E_GEOM;
}

/* The cluster count of @g against its type's range. */
static enum fp_err check_count(const struct fp_mkfs_geom *g,
			       struct fp_mkfs_diag *d)
{
	uint64_t n = clusters_for(g, g->fat_secs);

	if (n == 0)
		return refuse(d, FP_MKFS_TOO_SMALL, g->total_secs * g->sec_len,
			      g->type);
	if (g->type == FP_FAT12 && n > FP_MKFS_FAT12_MAX)
		return refuse(d, FP_MKFS_FAT12_MANY, n, g->type);
	if (g->type == FP_FAT16 && n < FP_MKFS_FAT16_MIN)
		return refuse(d, FP_MKFS_FAT16_FEW, n, g->type);
	if (g->type == FP_FAT16 && n > FP_MKFS_FAT16_MAX)
		return refuse(d, FP_MKFS_FAT16_MANY, n, g->type);
	if (g->type == FP_FAT32 && n < FP_FAT32_MIN_CLUSTERS)
		return refuse(d, FP_MKFS_FAT32_FEW, n, g->type);
	if (g->type == FP_FAT32 && n > FP_MKFS_FAT32_MAX)
		return refuse(d, FP_MKFS_FAT32_MANY, n, g->type);
	return FP_OK;
}

/*
 * Pad the metadata so that the data area starts on a multiple of @align
 * bytes of the device: the reserved sectors take the padding unless they
 * were given, else the FAT12/16 root directory unless its entries were
 * given, else every FAT alike when the padding divides evenly.
 */
static enum fp_err pad_to(struct fp_mkfs_geom *g, const struct fp_mkfs_opts *o,
			  uint64_t align, struct fp_mkfs_diag *d)
{
	uint64_t root_secs = (uint64_t)g->root_entries * FP_DIRENT_LEN /
			     g->sec_len;
	uint64_t data = o->dev_off + (g->reserved_secs +
			(uint64_t)g->fat_count * g->fat_secs + root_secs) *
			g->sec_len;
	uint64_t pad = (align - data % align) % align / g->sec_len;

	if (pad == 0)
		return FP_OK;
	if (!o->reserved_secs) {
		if (g->reserved_secs + pad > 0xFFFF)
			return refuse(d, FP_MKFS_RESERVED,
				      g->reserved_secs + pad, g->type);
		g->reserved_secs += (uint32_t)pad;
	} else if (g->type != FP_FAT32 && !o->has_root_entries &&
		   g->root_entries + pad * g->sec_len / FP_DIRENT_LEN <=
		   0xFFFF - g->sec_len / FP_DIRENT_LEN + 1) {
		g->root_entries += (uint32_t)(pad * g->sec_len /
					      FP_DIRENT_LEN);
	} else if (pad % g->fat_count == 0) {
		g->fat_secs += (uint32_t)(pad / g->fat_count);
	} else {
		return refuse(d, FP_MKFS_ALIGN, align, g->type);
	}
	return FP_OK;
}

/* The values given or their defaults, for @type and @clus_len. */
static void base_geom(const struct fp_mkfs_opts *o, enum fp_fat_type type,
		      uint32_t clus_len, struct fp_mkfs_geom *g)
{
	memset(g, 0, sizeof(*g));
	g->type = type;
	g->sec_len = o->sec_len ? o->sec_len : FP_SECTOR_MIN;
	g->clus_len = clus_len;
	g->total_secs = o->vol_len / g->sec_len;
	g->reserved_secs = o->reserved_secs ? o->reserved_secs :
			   type == FP_FAT32 ? RESERVED_FAT32 : RESERVED_FAT16;
	g->fat_count = o->fat_count ? o->fat_count : 2;
	if (type != FP_FAT32)
		g->root_entries = o->has_root_entries ? o->root_entries :
				  ROOT_ENTRIES_DEFAULT;
	g->hidden_secs = o->has_hidden ? o->hidden_secs :
			 o->dev_off / g->sec_len > UINT32_MAX ? 0 :
			 (uint32_t)(o->dev_off / g->sec_len);
	g->media = o->media ? o->media : 0xF8;
}

/* The layout of @type with clusters of @clus_len, aligned to @align. */
static enum fp_err layout(const struct fp_mkfs_opts *o, enum fp_fat_type type,
			  uint32_t clus_len, uint64_t align,
			  struct fp_mkfs_geom *out, struct fp_mkfs_diag *d)
{
	struct fp_mkfs_geom g;
	uint64_t fat;
	enum fp_err err;

	base_geom(o, type, clus_len, &g);
	if (type == FP_FAT32 && g.reserved_secs < FP_MKFS_FAT32_RESERVED_MIN)
		return refuse(d, FP_MKFS_RESERVED, g.reserved_secs, type);
	fat = smallest_fat(&g);
	if (fat > (type == FP_FAT32 ? UINT32_MAX : 0xFFFF))
		return refuse(d, type == FP_FAT32 ? FP_MKFS_FAT32_MANY :
			      FP_MKFS_FAT16_MANY, clusters_for(&g, fat), type);
	g.fat_secs = (uint32_t)fat;
	err = pad_to(&g, o, align, d);
	if (!err)
		err = check_count(&g, d);
	if (err)
		return err;
	g.cluster_count = (uint32_t)clusters_for(&g, g.fat_secs);
	g.data_off = (g.reserved_secs + (uint64_t)g.fat_count * g.fat_secs) *
		     g.sec_len + (uint64_t)g.root_entries * FP_DIRENT_LEN;
	g.align = align;
	*out = g;
	return FP_OK;
}

/*
 * Try the alignments: the one asked for, else 1 MiB and then the
 * cluster size.  A refusal other than the alignment's is the one kept.
 */
static enum fp_err try_aligns(const struct fp_mkfs_opts *o,
			      enum fp_fat_type type, uint32_t clus_len,
			      struct fp_mkfs_geom *g, struct fp_mkfs_diag *d)
{
	enum fp_err err;

	if (o->align)
		return layout(o, type, clus_len, o->align, g, d);
	err = layout(o, type, clus_len, FP_MKFS_ALIGN_DEFAULT, g, d);
	if (err)
		err = layout(o, type, clus_len, clus_len, g, d);
	return err;
}

static int too_many(enum fp_mkfs_why why)
{
	return why == FP_MKFS_FAT12_MANY || why == FP_MKFS_FAT16_MANY ||
	       why == FP_MKFS_FAT32_MANY;
}

/*
 * The cluster size for @type: the one given, else the preferred one;
 * when that leaves too many clusters, the larger ones up to @max, else
 * the smaller ones down to a sector.  A refusal is that of the last
 * size tried, the one nearest to fitting.
 */
static enum fp_err pick_cluster(const struct fp_mkfs_opts *o,
				enum fp_fat_type type, uint32_t max,
				struct fp_mkfs_geom *g, struct fp_mkfs_diag *d)
{
	uint32_t sec = o->sec_len ? o->sec_len : FP_SECTOR_MIN;
	uint32_t pref = type == FP_FAT32 ? fat32_pref(o->vol_len) :
			PREF_CLUSTER_SMALL;
	enum fp_err err;
	uint32_t c;

	if (o->clus_len)
		return try_aligns(o, type, o->clus_len, g, d);
	if (pref < sec)
		pref = sec;
	err = try_aligns(o, type, pref, g, d);
	if (err && too_many(d->why))
		for (c = pref * 2; c <= max && err; c *= 2)
			err = try_aligns(o, type, c, g, d);
	else if (err)
		for (c = pref / 2; c >= sec && err; c /= 2)
			err = try_aligns(o, type, c, g, d);
	return err;
}

/* The values given that no layout can take. */
static enum fp_err check_given(const struct fp_mkfs_opts *o,
			       struct fp_mkfs_diag *d)
{
	uint32_t sec = o->sec_len ? o->sec_len : FP_SECTOR_MIN;
	uint64_t secs = o->vol_len / sec;

	if (!is_pow2_64(sec) || sec < FP_SECTOR_MIN || sec > FP_SECTOR_MAX)
		return refuse(d, FP_MKFS_SECTOR, sec, o->type);
	if (o->dev_off % sec)
		return refuse(d, FP_MKFS_OFFSET, o->dev_off, o->type);
	if (o->clus_len && (!is_pow2_64(o->clus_len) || o->clus_len < sec ||
			    o->clus_len / sec > MAX_SPC ||
			    o->clus_len > FP_CLUSTER_MAX))
		return refuse(d, FP_MKFS_CLUSTER, o->clus_len, o->type);
	if (o->align && (!is_pow2_64(o->align) || o->align < sec))
		return refuse(d, FP_MKFS_ALIGN, o->align, o->type);
	if (secs > UINT32_MAX)
		return refuse(d, FP_MKFS_TOO_BIG, secs, o->type);
	if (o->reserved_secs > 0xFFFF || (o->type == FP_FAT32 &&
	    o->reserved_secs && o->reserved_secs < FP_MKFS_FAT32_RESERVED_MIN))
		return refuse(d, FP_MKFS_RESERVED, o->reserved_secs, o->type);
	if (o->has_root_entries && (o->type == FP_FAT32 ? o->root_entries :
	    !o->root_entries || o->root_entries > 0xFFFF ||
	    (uint64_t)o->root_entries * FP_DIRENT_LEN % sec))
		return refuse(d, FP_MKFS_ROOT, o->root_entries, o->type);
	return FP_OK;
}

/*
 * FAT32 from 512 MiB; below, FAT12 when it fits with clusters up to
 * 4 KiB, else FAT16, else FAT12 with any cluster size (a volume too
 * small for FAT16).  Root entries given rule FAT32 out.  The refusal
 * reported is that of the type tried by size.
 */
static enum fp_err pick_type(const struct fp_mkfs_opts *o,
			     struct fp_mkfs_geom *g, struct fp_mkfs_diag *d)
{
	struct fp_mkfs_diag d16;
	enum fp_err err;

	if (o->vol_len >= FAT32_AUTO_MIN && !o->has_root_entries)
		return pick_cluster(o, FP_FAT32, FP_MKFS_AUTO_CLUSTER_MAX, g,
				    d);
	err = pick_cluster(o, FP_FAT12, FAT12_AUTO_CLUSTER_MAX, g, d);
	if (!err)
		return FP_OK;
	err = pick_cluster(o, FP_FAT16, FP_MKFS_AUTO_CLUSTER_MAX, g, &d16);
	if (!err)
		return FP_OK;
	err = pick_cluster(o, FP_FAT12, FP_MKFS_AUTO_CLUSTER_MAX, g, d);
	if (err && d16.why != FP_MKFS_FAT16_FEW)
		*d = d16;
	return err;
}

enum fp_err fp_mkfs_geom(const struct fp_mkfs_opts *o, struct fp_mkfs_geom *g,
			 struct fp_mkfs_diag *d)
{
	struct fp_mkfs_geom t;
	enum fp_err err;

	memset(d, 0, sizeof(*d));
	err = check_given(o, d);
	if (!err && o->type &&
	    o->type != FP_FAT12 && o->type != FP_FAT16 && o->type != FP_FAT32)
		err = FP_E_INVAL;
	if (!err && o->type)
		err = pick_cluster(o, o->type, FP_MKFS_AUTO_CLUSTER_MAX, &t, d);
	else if (!err)
		err = pick_type(o, &t, d);
	if (!err)
		*g = t;
	return err;
}

/* The figures the rules of a profile read, of @g placed as @where says. */
static void profile_geom(const struct fp_mkfs_geom *g,
			 const struct fp_profile_geom *where,
			 struct fp_profile_geom *pg)
{
	if (where)
		*pg = *where;
	else
		memset(pg, 0, sizeof(*pg));
	pg->type = g->type;
	pg->sec_len = g->sec_len;
	pg->clus_len = g->clus_len;
	pg->cluster_count = g->cluster_count;
	pg->fat_count = g->fat_count;
	pg->vol_len = g->total_secs * g->sec_len;
}

/*
 * Try one choice of type and sector size: 1 when its geometry keeps
 * every rule (*@g set), else 0, keeping in *@d the rules broken by the
 * choice that breaks the fewest so far (*@seen: whether any had a
 * geometry), or the refusal of the first choice when none had one.
 */
static int try_choice(const struct fp_mkfs_opts *o, enum fp_fat_type type,
		      uint32_t sec_len, const struct fp_profile *p,
		      const struct fp_profile_geom *where,
		      struct fp_mkfs_geom *g, struct fp_mkfs_diag *d,
		      int *seen, int first)
{
	struct fp_profile_violation v[FP_PROFILE_RULES_MAX];
	struct fp_profile_geom pg;
	struct fp_mkfs_opts t = *o;
	struct fp_mkfs_diag td;
	struct fp_mkfs_geom tg;
	size_t n;

	t.type = type;
	t.sec_len = sec_len;
	if (fp_mkfs_geom(&t, &tg, &td)) {
		if (first)
			*d = td;
		return 0;
	}
	profile_geom(&tg, where, &pg);
	fp_profile_check(p, &pg, v, &n);
	if (n == 0) {
		*g = tg;
		return 1;
	}
	if (!*seen || n < d->rule_count) {
		memset(d, 0, sizeof(*d));
		d->why = FP_MKFS_PROFILE;
		d->type = tg.type;
		memcpy(d->rules, v, n * sizeof(v[0]));
		d->rule_count = n;
		*seen = 1;
	}
	return 0;
}

enum fp_err fp_mkfs_geom_profile(const struct fp_mkfs_opts *o,
				 const struct fp_profile *p,
				 const struct fp_profile_geom *where,
				 struct fp_mkfs_geom *g,
				 struct fp_mkfs_diag *d)
{
	static const enum fp_fat_type types[] = {
		(enum fp_fat_type)0, FP_FAT32, FP_FAT16, FP_FAT12,
	};
	uint32_t secs[2] = { o->sec_len, 0 };
	size_t i, j, nt = o->type ? 1 : 4, ns = 1;
	int seen = 0;

	if (!p)
		return fp_mkfs_geom(o, g, d);
	memset(d, 0, sizeof(*d));
	if (!o->sec_len && where && where->disk_sec_len &&
	    where->disk_sec_len != FP_SECTOR_MIN)
		secs[ns++] = where->disk_sec_len;
	for (i = 0; i < ns; i++)
		for (j = 0; j < nt; j++)
			if (try_choice(o, o->type ? o->type : types[j],
				       secs[i], p, where, g, d, &seen,
				       i == 0 && j == 0))
				return FP_OK;
	return FP_E_GEOM;
}

/* --- writing an empty volume --- */

#define FSINFO_SEC		1
#define BACKUP_SEC		6
#define ROOT_CL			2
#define ATTR_VOLUME_ID		0x08
#define SECTORS_PER_TRACK	63	/* the usual LBA translation */
#define HEADS			255

/*
 * The "not a bootable disk" stub, 16-bit x86 loaded at 0:7C00 (either
 * 0000:7C00 or 07C0:0000): print the message after it through the BIOS
 * (int 10h, AH=0Eh), wait for a key (int 16h), then ask the BIOS for the
 * next boot device (int 19h).  The message's address is patched in.
 */
static const uint8_t stub_code[] = {
	0x31, 0xC0,		/* xor ax, ax */
	0x8E, 0xD8,		/* mov ds, ax */
	0xBE, 0x00, 0x00,	/* mov si, 0x7C00 + message */
	0xFC,			/* cld */
	0xAC,			/* next: lodsb */
	0x84, 0xC0,		/* test al, al */
	0x74, 0x09,		/* jz done */
	0xB4, 0x0E,		/* mov ah, 0x0E */
	0xBB, 0x07, 0x00,	/* mov bx, 7 */
	0xCD, 0x10,		/* int 0x10 */
	0xEB, 0xF2,		/* jmp next */
	0x31, 0xC0,		/* done: xor ax, ax */
	0xCD, 0x16,		/* int 0x16 */
	0xCD, 0x19,		/* int 0x19 */
	0xF4,			/* halt: hlt */
	0xEB, 0xFD,		/* jmp halt */
};

static const char stub_msg[] =
	"\r\nThis volume holds no operating system: it is not bootable.\r\n"
	"Remove it, or choose another boot device, and press a key.\r\n";

size_t fp_mkfs_code_len(enum fp_fat_type type)
{
	return FP_MKFS_CODE_END - (type == FP_FAT32 ? FP_MKFS_CODE32_OFF :
				   FP_MKFS_CODE16_OFF);
}

static int label_char_bad(unsigned char c)
{
	return c < 0x20 || c >= 0x7F || strchr("*?.,;:/\\|+=<>[]\"", c);
}

enum fp_err fp_mkfs_label(const char *s, uint8_t out[11])
{
	size_t i, n = strlen(s);

	if (n == 0 || n > 11 || s[0] == ' ')
		return FP_E_NAME;
	for (i = 0; i < n; i++)
		if (label_char_bad((unsigned char)s[i]))
			return FP_E_NAME;
	memset(out, ' ', 11);
	memcpy(out, s, n);
	return FP_OK;
}

/* FNV-1a, 32 bits, over @len bytes. */
static uint32_t fnv1a(uint32_t h, const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len--) {
		h ^= *b++;
		h *= 16777619u;
	}
	return h;
}

uint32_t fp_mkfs_volume_id(int64_t time, const char *label)
{
	uint8_t t[8];
	uint32_t h;

	fp_put_le64(t, (uint64_t)time);
	h = fnv1a(2166136261u, t, sizeof(t));
	h = fnv1a(h, "", 1);
	if (label)
		h = fnv1a(h, label, strlen(label));
	return h;
}

/* The fields every FAT type has, and the jump and signature. */
static void encode_common(uint8_t *bs, const struct fp_mkfs_geom *g)
{
	int fat32 = g->type == FP_FAT32;

	bs[BS_JMP_BOOT] = 0xEB;
	bs[BS_JMP_BOOT + 1] = (uint8_t)((fat32 ? FP_MKFS_CODE32_OFF :
					 FP_MKFS_CODE16_OFF) - 2);
	bs[BS_JMP_BOOT + 2] = 0x90;
	memcpy(bs + BS_OEM_NAME, "MSWIN4.1", 8);
	fp_put_le16(bs + BPB_BYTES_PER_SEC, (uint16_t)g->sec_len);
	bs[BPB_SEC_PER_CLUS] = (uint8_t)(g->clus_len / g->sec_len);
	fp_put_le16(bs + BPB_RSVD_SEC_CNT, (uint16_t)g->reserved_secs);
	bs[BPB_NUM_FATS] = (uint8_t)g->fat_count;
	fp_put_le16(bs + BPB_ROOT_ENT_CNT, (uint16_t)g->root_entries);
	if (!fat32 && g->total_secs <= 0xFFFF)
		fp_put_le16(bs + BPB_TOT_SEC16, (uint16_t)g->total_secs);
	else
		fp_put_le32(bs + BPB_TOT_SEC32, (uint32_t)g->total_secs);
	bs[BPB_MEDIA] = g->media;
	if (!fat32)
		fp_put_le16(bs + BPB_FAT_SZ16, (uint16_t)g->fat_secs);
	fp_put_le16(bs + BPB_SEC_PER_TRK, SECTORS_PER_TRACK);
	fp_put_le16(bs + BPB_NUM_HEADS, HEADS);
	fp_put_le32(bs + BPB_HIDD_SEC, g->hidden_secs);
	bs[FP_BOOT_SIG_OFF] = 0x55;
	bs[FP_BOOT_SIG_OFF + 1] = 0xAA;
}

/* The boot code: @m's, or the stub and its message. */
static void encode_code(uint8_t *bs, const struct fp_mkfs_geom *g,
			const struct fp_mkfs_meta *m)
{
	size_t off = FP_MKFS_CODE_END - fp_mkfs_code_len(g->type);
	uint16_t msg = (uint16_t)(0x7C00 + off + sizeof(stub_code));

	if (m->boot_code) {
		memcpy(bs + off, m->boot_code, fp_mkfs_code_len(g->type));
		return;
	}
	memcpy(bs + off, stub_code, sizeof(stub_code));
	fp_put_le16(bs + off + 5, msg);
	memcpy(bs + off + sizeof(stub_code), stub_msg, sizeof(stub_msg));
}

/* The boot sector of @g into @bs (one zeroed sector). */
static void encode_boot(uint8_t *bs, const struct fp_mkfs_geom *g,
			const struct fp_mkfs_meta *m)
{
	int fat32 = g->type == FP_FAT32;
	unsigned ext = fat32 ? BS32_DRV_NUM : BS_DRV_NUM;

	encode_common(bs, g);
	if (fat32) {
		fp_put_le32(bs + BPB_FAT_SZ32, g->fat_secs);
		fp_put_le32(bs + BPB_ROOT_CLUS, ROOT_CL);
		fp_put_le16(bs + BPB_FS_INFO, FSINFO_SEC);
		fp_put_le16(bs + BPB_BK_BOOT_SEC, BACKUP_SEC);
	}
	/* the extended fields: BS_DrvNum .. BS_FilSysType, 28 bytes on */
	bs[ext] = g->media == 0xF0 ? 0x00 : 0x80;
	bs[ext + BS_BOOT_SIG - BS_DRV_NUM] = 0x29;
	fp_put_le32(bs + ext + BS_VOL_ID - BS_DRV_NUM, m->volume_id);
	memcpy(bs + ext + BS_VOL_LAB - BS_DRV_NUM,
	       m->has_label ? m->label : (const uint8_t *)"NO NAME    ", 11);
	memcpy(bs + ext + BS_FIL_SYS_TYPE - BS_DRV_NUM,
	       fat32 ? "FAT32   " : g->type == FP_FAT16 ? "FAT16   " :
	       "FAT12   ", 8);
	encode_code(bs, g, m);
}

static void encode_fsinfo(uint8_t *sec, const struct fp_mkfs_geom *g)
{
	fp_put_le32(sec + FSI_LEAD_SIG, FSI_LEAD_SIG_VAL);
	fp_put_le32(sec + FSI_STRUC_SIG, FSI_STRUC_SIG_VAL);
	fp_put_le32(sec + FSI_FREE_COUNT, g->cluster_count - 1);
	fp_put_le32(sec + FSI_NXT_FREE, ROOT_CL);
	fp_put_le32(sec + FSI_TRAIL_SIG, FSI_TRAIL_SIG_VAL);
}

/*
 * The first entries of every FAT copy: the media byte in entry 0, entry
 * 1 all ones (its clean bits set), and on FAT32 the root's cluster as a
 * chain end.
 */
static enum fp_err write_fats(struct fp_img *img, const struct fp_mkfs_geom *g)
{
	uint8_t head[12] = { g->media, 0xFF, 0xFF, 0xFF };
	size_t len = g->type == FP_FAT12 ? 3 : g->type == FP_FAT16 ? 4 : 12;
	uint64_t fat_off = (uint64_t)g->reserved_secs * g->sec_len;
	enum fp_err err = FP_OK;
	uint32_t i;

	if (g->type == FP_FAT32) {
		fp_put_le32(head, 0x0FFFFF00u | g->media);
		fp_put_le32(head + 4, 0x0FFFFFFFu);
		fp_put_le32(head + 8, 0x0FFFFFF8u);
	}
	for (i = 0; i < g->fat_count && !err; i++)
		err = fp_img_write(img, fat_off +
				   (uint64_t)i * g->fat_secs * g->sec_len,
				   head, len);
	return err;
}

/* The label's entry, first in the root directory. */
static enum fp_err write_label(struct fp_img *img,
			       const struct fp_mkfs_geom *g,
			       const struct fp_mkfs_meta *m)
{
	uint8_t ent[FP_DIRENT_LEN];
	uint64_t root_off = g->type == FP_FAT32 ? g->data_off :
			    g->data_off - (uint64_t)g->root_entries *
			    FP_DIRENT_LEN;
	uint16_t date, time;
	uint8_t tenth;

	if (!m->has_label)
		return FP_OK;
	fp_dir_timestamp(m->time, m->utc, &date, &time, &tenth);
	fp_dirent_encode(ent, m->label, ATTR_VOLUME_ID, 0, 0, 0,
			 g->type == FP_FAT32, date, time, tenth);
	return fp_img_write(img, root_off, ent, sizeof(ent));
}

/* FAT32: FSInfo, and the backup boot sector and FSInfo after it. */
static enum fp_err write_fat32_sectors(struct fp_img *img,
				       const struct fp_mkfs_geom *g,
				       const uint8_t *bs, uint8_t *sec)
{
	enum fp_err err;

	memset(sec, 0, g->sec_len);
	encode_fsinfo(sec, g);
	err = fp_img_write(img, (uint64_t)FSINFO_SEC * g->sec_len, sec,
			   g->sec_len);
	if (!err)
		err = fp_img_write(img, (uint64_t)(BACKUP_SEC + FSINFO_SEC) *
				   g->sec_len, sec, g->sec_len);
	if (!err)
		err = fp_img_write(img, (uint64_t)BACKUP_SEC * g->sec_len, bs,
				   g->sec_len);
	return err;
}

/*
 * Zeros first over everything the volume's metadata takes, the boot
 * sector included, so that a run cut short leaves no old boot sector
 * over new FATs; the boot sector comes last.
 */
enum fp_err fp_mkfs_write(struct fp_img *img, const struct fp_mkfs_geom *g,
			  const struct fp_mkfs_meta *m, int sparse)
{
	uint64_t meta_end = g->data_off +
			    (g->type == FP_FAT32 ? g->clus_len : 0);
	uint8_t *bs, *sec = NULL;
	enum fp_err err;

	if (g->total_secs * g->sec_len > fp_img_len(img))
		return FP_E_TRUNC;
	bs = calloc(2, g->sec_len);
	if (!bs)
		return FP_E_NOMEM;
	sec = bs + g->sec_len;
	encode_boot(bs, g, m);
	err = sparse ? FP_OK : fp_img_zero(img, 0, meta_end);
	if (!err)
		err = write_fats(img, g);
	if (!err)
		err = write_label(img, g, m);
	if (!err && g->type == FP_FAT32)
		err = write_fat32_sectors(img, g, bs, sec);
	if (!err)
		err = fp_img_write(img, 0, bs, g->sec_len);
	free(bs);
	return err;
}

/*
 * Every host file a copy reads can be opened: otherwise the commit would
 * find out only after the volume was made (FP_E_SRC, diag: req and
 * errnum).  A file that turns unreadable afterwards still fails there.
 */
static enum fp_err sources_readable(const struct fp_plan_opts *po,
				    size_t count, struct fp_plan_diag *diag)
{
	const struct fp_req_src *s;
	size_t i;
	int fd;

	for (i = 0; po->srcs && i < count; i++) {
		s = &po->srcs[i];
		if (!s->host || s->is_dir || s->data)
			continue;
		fd = open(s->host, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0) {
			diag->req = i;
			diag->errnum = errno;
			return FP_E_SRC;
		}
		close(fd);
	}
	return FP_OK;
}

enum fp_err fp_mkfs_plan_fits(const struct fp_mkfs_geom *g,
			      const struct fp_mkfs_meta *m,
			      const struct fp_plan_opts *po,
			      const struct fp_req *reqs, size_t count,
			      uint32_t *free_cl, struct fp_geom *geom,
			      struct fp_plan_diag *diag)
{
	struct fp_plan_opts o = *po;
	struct fp_plan *plan = NULL;
	struct fp_img *img = NULL;
	struct fp_fs *fs = NULL;
	enum fp_err err;
	uint32_t n = 0;

	o.progress = NULL;
	err = sources_readable(po, count, diag);
	if (!err)
		err = fp_img_sparse(g->total_secs * g->sec_len, &img);
	if (!err)
		err = fp_mkfs_write(img, g, m, 1);
	if (!err)
		err = fp_fs_open(img, &fs);
	if (!err) {
		*geom = *fp_fs_geom(fs);
		err = fp_plan_build(fs, &o, reqs, count, &plan, diag);
	}
	if (!err)
		err = fp_plan_free_count(plan, &n);
	if (!err)
		*free_cl = n;
	fp_plan_free(plan);
	fp_fs_free(fs);
	fp_img_close(img);
	return err;
}
