/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * profile.h - the geometry rules of boot targets (--profile): what the
 * firmware or loader that reads a volume needs of its geometry.
 */
#ifndef FP_PROFILE_H
#define FP_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "bpb.h"
#include "ptable.h"

struct fp_locate;	/* fs.h */

/* A profile (uefi-esp, raspberry-pi, uboot, generic): a static table. */
struct fp_profile;

/* A rule of one or more profiles: a static table. */
struct fp_profile_rule;

/* The most rules one profile has. */
#define FP_PROFILE_RULES_MAX 16

/*
 * The figures the rules read, which a decoded boot sector
 * (fp_profile_geom_from_bpb()) and a geometry that a formatter plans can
 * both fill.  Zero what is not known: part_kind FP_PT_NONE for a volume
 * outside a partition table (or not known to be in one).
 */
struct fp_profile_geom {
	enum fp_fat_type type;
	uint32_t sec_len;	/* bytes per sector */
	uint32_t clus_len;	/* bytes per cluster */
	uint32_t cluster_count;	/* data clusters */
	uint32_t fat_count;
	uint64_t vol_len;	/* bytes */
	int removable;		/* the medium is removable (a floppy, a
				 * card or stick the firmware sees as
				 * such): 0 when not known */
	enum fp_ptable_kind part_kind;	/* the table holding the volume */
	uint32_t disk_sec_len;	/* the table's logical block size, 0: not
				 * known (taken as 512) */
	uint8_t mbr_type;	/* FP_PT_MBR: the entry's system id */
	uint8_t gpt_type[16];	/* FP_PT_GPT: the type GUID as stored */
};

/*
 * The figures of @g, a decoded boot sector, into *pg; where the volume
 * lies (@loc, NULL: not known) gives the partition fields.
 */
void fp_profile_geom_from_bpb(struct fp_profile_geom *pg,
			      const struct fp_geom *g,
			      const struct fp_locate *loc);

/*
 * The partition fields of @pg (part_kind, disk_sec_len, mbr_type,
 * gpt_type) from where the volume lies (@loc, NULL or no partition:
 * left alone); a formatter fills the rest from the geometry it plans.
 */
void fp_profile_geom_where(struct fp_profile_geom *pg,
			   const struct fp_locate *loc);

/* The profile called @name, or NULL when there is none. */
const struct fp_profile *fp_profile_find(const char *name);

/* The profiles in order, @i from 0: NULL past the last. */
const struct fp_profile *fp_profile_at(size_t i);

/* The name of @p ("uefi-esp"). */
const char *fp_profile_name(const struct fp_profile *p);

/* A rule that @pg breaks: which, the figure checked and the limit. */
struct fp_profile_violation {
	const struct fp_profile_rule *rule;
	uint64_t figure;	/* what the volume has (a cluster count) */
	uint64_t limit;		/* what the rule wants of it */
};

/*
 * Check @pg against every rule of @p, in the profile's order: the rules
 * broken into @out (room for FP_PROFILE_RULES_MAX), their number into
 * *count.  Pure: no I/O, nothing printed.
 */
void fp_profile_check(const struct fp_profile *p,
		      const struct fp_profile_geom *pg,
		      struct fp_profile_violation *out, size_t *count);

/* The rule called @name (any profile's), or NULL. */
const struct fp_profile_rule *fp_profile_rule_find(const char *name);

/* The stable name of rule @r ("esp-sector-size"). */
const char *fp_profile_rule_name(const struct fp_profile_rule *r);

/*
 * 1 when rule @r is about the partition that holds the volume (its MBR
 * type or GPT type GUID), which no geometry of the volume changes.
 */
int fp_profile_rule_part(const struct fp_profile_rule *r);

/*
 * One line for rule @r broken with @figure and @limit, into @buf of
 * @len bytes (truncated, always terminated): the rule's name, then what
 * the volume has and who needs what.
 */
void fp_profile_rule_format(const struct fp_profile_rule *r, uint64_t figure,
			    uint64_t limit, char *buf, size_t len);

#endif
