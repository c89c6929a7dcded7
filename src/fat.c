/* fat.c - one FAT in memory: 12/16/32-bit entries, dirty sectors, flush. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "fat.h"
#include "le.h"

#define FAT_LOAD_CHUNK (4u * 1024u * 1024u)
/* A multiple of 12 bytes, so a chunk holds whole entries of every type. */
#define FAT_CMP_CHUNK (3u * 256u * 1024u)
_Static_assert(FAT_CMP_CHUNK % 12 == 0, "compare chunk splits entries");

#define FAT32_MASK 0x0FFFFFFFu
#define FAT32_HIGH 0xF0000000u

/* Largest entry value of a type; BAD is mask - 8, EOC mask - 7 .. mask. */
static uint32_t type_mask(enum fp_fat_type type)
{
	switch (type) {
	case FP_FAT12:
		return 0xFFFu;
	case FP_FAT16:
		return 0xFFFFu;
	default:
		return FAT32_MASK;
	}
}

/* Bytes holding entries 0 .. max_cl. */
static uint64_t entry_bytes(enum fp_fat_type type, uint32_t max_cl)
{
	uint64_t n = (uint64_t)max_cl + 1;

	if (type == FP_FAT12)
		return (n * 3 + 1) / 2;
	return n * (type / 8);
}

/* The first entry starting at byte @pos of the FAT (@pos entry-aligned). */
static uint32_t entry_at(enum fp_fat_type type, uint64_t pos)
{
	if (type == FP_FAT12)
		return (uint32_t)(pos * 2 / 3);
	return (uint32_t)(pos / (type / 8));
}

/*
 * Entry @i of the entries in @p, unmasked (FAT32 keeps its top 4 bits);
 * for FAT12 @p must start at an even entry.
 */
static uint32_t entry_raw(enum fp_fat_type type, const uint8_t *p,
			  uint32_t i)
{
	uint32_t v;

	switch (type) {
	case FP_FAT12:
		v = fp_le16(p + i + i / 2);
		return i & 1 ? v >> 4 : v & 0xFFF;
	case FP_FAT16:
		return fp_le16(p + (size_t)i * 2);
	default:
		return fp_le32(p + (size_t)i * 4);
	}
}

/* Check that @g is a FAT this module can hold; *need = entry bytes. */
static enum fp_err check_geom(const struct fp_geom *g, uint64_t *need)
{
	if (g->type != FP_FAT12 && g->type != FP_FAT16 &&
	    g->type != FP_FAT32)
		return FP_E_INVAL;
	if (g->sec_len == 0 || g->fat_len % g->sec_len != 0)
		return FP_E_INVAL;
	/* the highest cluster number must stay below the BAD value */
	if (g->cluster_count == 0 ||
	    g->cluster_count > type_mask(g->type) - 10 ||
	    g->fat_count == 0 || g->active_fat >= g->fat_count)
		return FP_E_INVAL;
	*need = entry_bytes(g->type, fp_geom_max_cl(g));
	if (*need > g->fat_len || g->fat_len / g->sec_len > UINT32_MAX)
		return FP_E_BPB;
	if (*need > SIZE_MAX - FP_SECTOR_MAX)
		return FP_E_NOMEM;
	return FP_OK;
}

static enum fp_err read_chunks(struct fp_img *img, uint64_t off,
			       uint8_t *buf, uint64_t len)
{
	uint64_t pos;
	enum fp_err err;

	for (pos = 0; pos < len; pos += FAT_LOAD_CHUNK) {
		uint64_t n = len - pos;

		if (n > FAT_LOAD_CHUNK)
			n = FAT_LOAD_CHUNK;
		err = fp_img_read(img, off + pos, buf + pos, (size_t)n);
		if (err)
			return err;
	}
	return FP_OK;
}

/*
 * Only the sectors holding entries 0 .. max_cl are loaded, so a BPB with
 * an oversized FAT cannot make us allocate more than the clusters need.
 */
enum fp_err fp_fat_load(struct fp_fat *fat, struct fp_img *img,
			const struct fp_geom *g)
{
	uint64_t need;
	enum fp_err err;

	memset(fat, 0, sizeof(*fat));
	err = check_geom(g, &need);
	if (err)
		return err;
	fat->type = g->type;
	fat->max_cl = fp_geom_max_cl(g);
	fat->sec_len = g->sec_len;
	fat->sec_count = (uint32_t)((need + g->sec_len - 1) / g->sec_len);
	fat->len = (uint64_t)fat->sec_count * g->sec_len;
	fat->buf = malloc((size_t)fat->len);
	fat->dirty = calloc(fat->sec_count, 1);
	if (!fat->buf || !fat->dirty) {
		err = FP_E_NOMEM;
		goto out;
	}
	err = read_chunks(img, g->fat_off + (uint64_t)g->active_fat *
			  g->fat_len, fat->buf, fat->len);
out:
	if (err)
		fp_fat_release(fat);
	return err;
}

/*
 * Count the entries that differ between the @len bytes at @disk and the
 * same bytes of the FAT in memory from byte @pos (a chunk start).  The
 * unused half byte after an odd FAT12 entry count is not an entry and so
 * is not compared.
 */
static void diff_chunk(const struct fp_fat *fat, const uint8_t *disk,
		       uint64_t pos, size_t len, uint32_t *first,
		       uint32_t *diffs)
{
	const uint8_t *mem = fat->buf + pos;
	uint32_t from = entry_at(fat->type, pos);
	uint32_t to = entry_at(fat->type, pos + len);
	uint32_t i;

	if (to > fat->max_cl + 1)
		to = fat->max_cl + 1;
	for (i = from; i < to; i++) {
		if (entry_raw(fat->type, mem, i - from) ==
		    entry_raw(fat->type, disk, i - from))
			continue;
		if (*diffs == 0)
			*first = i;
		(*diffs)++;
	}
}

enum fp_err fp_fat_compare(const struct fp_fat *fat, struct fp_img *img,
			   const struct fp_geom *g, uint32_t copy, int *equal,
			   uint32_t *first_cl, uint32_t *diff_count)
{
	uint64_t need = entry_bytes(fat->type, fat->max_cl);
	uint64_t base, pos;
	uint32_t first = 0, diffs = 0;
	uint8_t *buf;
	enum fp_err err = FP_OK;

	if (copy >= g->fat_count || g->type != fat->type ||
	    fp_geom_max_cl(g) != fat->max_cl || need > g->fat_len)
		return FP_E_INVAL;
	buf = malloc(FAT_CMP_CHUNK);
	if (!buf)
		return FP_E_NOMEM;
	base = g->fat_off + (uint64_t)copy * g->fat_len;
	for (pos = 0; pos < need; pos += FAT_CMP_CHUNK) {
		size_t n = need - pos < FAT_CMP_CHUNK ?
			   (size_t)(need - pos) : FAT_CMP_CHUNK;

		err = fp_img_read(img, base + pos, buf, n);
		if (err)
			goto out;
		if (memcmp(buf, fat->buf + pos, n) != 0)
			diff_chunk(fat, buf, pos, n, &first, &diffs);
	}
	*equal = diffs == 0;
	*first_cl = first;
	*diff_count = diffs;
out:
	free(buf);
	return err;
}

/* Out-of-range clusters are a caller bug: assert; read back as invalid. */
uint32_t fp_fat_get(const struct fp_fat *fat, uint32_t cl)
{
	assert(cl <= fat->max_cl);
	if (cl > fat->max_cl)
		return 1;
	return entry_raw(fat->type, fat->buf, cl) & type_mask(fat->type);
}

/* Mark the sectors of the @len bytes at @off (a FAT12 entry may span 2). */
static void mark_dirty(struct fp_fat *fat, size_t off, size_t len)
{
	fat->dirty[off / fat->sec_len] = 1;
	fat->dirty[(off + len - 1) / fat->sec_len] = 1;
}

static void set12(struct fp_fat *fat, uint32_t cl, uint32_t val)
{
	size_t off = (size_t)cl + cl / 2;
	uint8_t *p = fat->buf + off;

	if (cl & 1) {
		p[0] = (uint8_t)((p[0] & 0x0F) | ((val & 0x0F) << 4));
		p[1] = (uint8_t)(val >> 4);
	} else {
		p[0] = (uint8_t)val;
		p[1] = (uint8_t)((p[1] & 0xF0) | (val >> 8));
	}
	mark_dirty(fat, off, 2);
}

void fp_fat_set(struct fp_fat *fat, uint32_t cl, uint32_t val)
{
	size_t off;

	assert(cl <= fat->max_cl);
	if (cl > fat->max_cl)
		return;
	val &= type_mask(fat->type);
	switch (fat->type) {
	case FP_FAT12:
		set12(fat, cl, val);
		break;
	case FP_FAT16:
		off = (size_t)cl * 2;
		fp_put_le16(fat->buf + off, (uint16_t)val);
		mark_dirty(fat, off, 2);
		break;
	default:
		off = (size_t)cl * 4;
		val |= fp_le32(fat->buf + off) & FAT32_HIGH;
		fp_put_le32(fat->buf + off, val);
		mark_dirty(fat, off, 4);
		break;
	}
}

uint32_t fp_fat_eoc(const struct fp_fat *fat)
{
	return type_mask(fat->type);
}

/*
 * Links are tested first: the highest FAT12/16 cluster numbers (0xFF5,
 * 0xFFF5) fall into the range 0xFF0..0xFF6 that is otherwise reserved.
 */
enum fp_fat_kind fp_fat_kind(const struct fp_fat *fat, uint32_t val)
{
	uint32_t mask = type_mask(fat->type);

	if (val == FP_FAT_FREE)
		return FP_FK_FREE;
	if (val >= 2 && val <= fat->max_cl)
		return FP_FK_NEXT;
	if (val == mask - 8)
		return FP_FK_BAD;
	if (val >= mask - 7 && val <= mask)
		return FP_FK_EOC;
	return FP_FK_INVALID;
}

/*
 * A chain holds distinct clusters, so one longer than the cluster count
 * (max_cl - 1) must revisit a cluster: that bounds the walk on a loop.
 */
enum fp_err fp_fat_chain(const struct fp_fat *fat, uint32_t start,
			 uint32_t *count, uint32_t *last)
{
	uint32_t cl = start, n = 1, v;

	if (start < 2 || start > fat->max_cl)
		return FP_E_CORRUPT;
	for (;;) {
		v = fp_fat_get(fat, cl);
		switch (fp_fat_kind(fat, v)) {
		case FP_FK_EOC:
			*count = n;
			*last = cl;
			return FP_OK;
		case FP_FK_NEXT:
			break;
		default:
			return FP_E_CORRUPT;
		}
		if (n == fat->max_cl - 1)
			return FP_E_CORRUPT;
		cl = v;
		n++;
	}
}

/* Write each maximal run of dirty sectors, with one write, to @base. */
static enum fp_err flush_copy(const struct fp_fat *fat, struct fp_img *img,
			      uint64_t base)
{
	const uint8_t *d;
	uint32_t s = 0, e;
	uint64_t off;
	enum fp_err err;

	while (s < fat->sec_count) {
		d = memchr(fat->dirty + s, 1, fat->sec_count - s);
		if (!d)
			break;
		s = (uint32_t)(d - fat->dirty);
		for (e = s + 1; e < fat->sec_count && fat->dirty[e]; e++)
			;
		off = (uint64_t)s * fat->sec_len;
		err = fp_img_write(img, base + off, fat->buf + off,
				   (size_t)(e - s) * fat->sec_len);
		if (err)
			return err;
		s = e;
	}
	return FP_OK;
}

enum fp_err fp_fat_flush(struct fp_fat *fat, struct fp_img *img,
			 const struct fp_geom *g)
{
	uint32_t c = g->mirror ? 0 : g->active_fat;
	uint32_t end = g->mirror ? g->fat_count : g->active_fat + 1;
	uint64_t off;
	enum fp_err err;

	if (fat->len > g->fat_len || end > g->fat_count ||
	    g->sec_len != fat->sec_len)
		return FP_E_INVAL;
	for (; c < end; c++) {
		off = g->fat_off + (uint64_t)c * g->fat_len;
		err = flush_copy(fat, img, off);
		if (err)
			return err;
	}
	if (fat->sec_count)
		memset(fat->dirty, 0, fat->sec_count);
	return FP_OK;
}

void fp_fat_release(struct fp_fat *fat)
{
	if (!fat)
		return;
	free(fat->buf);
	free(fat->dirty);
	memset(fat, 0, sizeof(*fat));
}
