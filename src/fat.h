/* fat.h - one FAT in memory: 12/16/32-bit entry access, dirty tracking. */
#ifndef FP_FAT_H
#define FP_FAT_H

#include <stdint.h>

#include "bpb.h"
#include "fp_err.h"
#include "image.h"

/* Entry values after masking (FAT32 entries are 28 bits). */
#define FP_FAT_FREE 0u

enum fp_fat_kind {
	FP_FK_FREE,	/* 0 */
	FP_FK_NEXT,	/* 2 .. max cluster: link to the next cluster */
	FP_FK_EOC,	/* end of chain (>= 0xFF8 / 0xFFF8 / 0x0FFFFFF8) */
	FP_FK_BAD,	/* 0xFF7 / 0xFFF7 / 0x0FFFFFF7 */
	FP_FK_INVALID,	/* 1, above max cluster, or reserved values */
};

/*
 * The active FAT copy, held whole in memory (buf owned by this struct).
 * Entries 0 .. max_cl are addressable.  Writes go through fp_fat_set(),
 * which marks the sectors it touches dirty; fp_fat_flush() writes the dirty
 * sectors as coalesced runs to every copy that must get them.
 */
struct fp_fat {
	enum fp_fat_type type;
	uint32_t max_cl;	/* highest valid cluster number */
	uint32_t sec_len;
	uint8_t *buf;		/* fat_len bytes */
	uint64_t len;
	uint8_t *dirty;		/* one byte a sector: 1 = dirty */
	uint32_t sec_count;
};

/* Read the active copy of the FAT described by @g.  *fat is zeroed first. */
enum fp_err fp_fat_load(struct fp_fat *fat, struct fp_img *img,
			const struct fp_geom *g);

/*
 * Compare copy @copy (0-based) on the image with the FAT in memory over the
 * bytes that hold entries 0 .. max_cl.  *equal is 1 or 0; on a difference
 * *first_cl is the first differing cluster and *diff_count how many differ.
 */
enum fp_err fp_fat_compare(const struct fp_fat *fat, struct fp_img *img,
			   const struct fp_geom *g, uint32_t copy, int *equal,
			   uint32_t *first_cl, uint32_t *diff_count);

/* Entry @cl (0 <= cl <= max_cl), masked to 12/16/28 bits. */
uint32_t fp_fat_get(const struct fp_fat *fat, uint32_t cl);

/*
 * Set entry @cl to @val, keeping the other nibble of a shared FAT12 byte and
 * the top 4 bits of a FAT32 entry; marks the touched sectors dirty.
 */
void fp_fat_set(struct fp_fat *fat, uint32_t cl, uint32_t val);

/* The end-of-chain value written for this FAT type. */
uint32_t fp_fat_eoc(const struct fp_fat *fat);

/* Classify a masked entry value. */
enum fp_fat_kind fp_fat_kind(const struct fp_fat *fat, uint32_t val);

/*
 * Walk the chain from @start, at most max_cl steps.  On success *count is
 * its length and *last its last cluster.  A start or link that is free,
 * bad, invalid or loops gives FP_E_CORRUPT.
 */
enum fp_err fp_fat_chain(const struct fp_fat *fat, uint32_t start,
			 uint32_t *count, uint32_t *last);

/*
 * Write the dirty sectors, as coalesced runs, to every FAT copy when the
 * FATs are mirrored, else to the active copy only; then clear dirty.
 */
enum fp_err fp_fat_flush(struct fp_fat *fat, struct fp_img *img,
			 const struct fp_geom *g);

/* Free the buffers; the struct may be loaded again.  NULL-safe contents. */
void fp_fat_release(struct fp_fat *fat);

#endif
