/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* mkfs.c - the geometry of a new FAT volume, and writing it empty. */
#include <string.h>

#include "le.h"
#include "mkfs.h"

#define MIB (1024u * 1024u)
#define FAT32_AUTO_MIN (512ull * MIB)	/* FAT32 chosen from this size */
#define FAT12_AUTO_CLUSTER_MAX 4096u	/* FAT12 chosen up to this cluster */
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
 * small for FAT16).  Root entries given rule FAT32 out.  The refusal reported is that of the type tried by
 * size.
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
