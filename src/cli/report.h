/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* report.h - render plans and results as text or JSON (CLI only). */
#ifndef FP_REPORT_H
#define FP_REPORT_H

#include <stdio.h>

#include "list.h"
#include "map.h"
#include "plan.h"
#include "verify.h"

/* Free space after a plan: fp_plan_free_count(), fp_plan_largest_run(). */
struct cli_free_space {
	uint32_t count;
	uint32_t run_start, run_count;	/* not set for a trim plan */
};

/*
 * One line a directory and a file, then a summary line and, but for a
 * trim, the largest free run.
 */
void cli_report_plan_text(FILE *out, const struct fp_fs *fs,
			 const struct fp_plan *plan,
			 const struct cli_free_space *sp, int done);

/* The plan as one JSON document. */
void cli_report_plan_json(FILE *out, const char *image,
			 const struct fp_fs *fs, const struct fp_plan *plan,
			 const struct cli_free_space *sp, int dry_run);

/*
 * One line a finding, then what was dropped, then a summary line with the
 * largest free run.
 */
void cli_report_verify_text(FILE *out, const struct fp_report *r);

/* The check as one JSON document. */
void cli_report_verify_json(FILE *out, const char *image,
			   const char *profile, const struct fp_report *r);

/*
 * One file's extents: clusters, byte offset in the image (@base is the
 * volume's offset in it) and in the volume, length.
 */
void cli_report_map_text(FILE *out, const char *path, const struct fp_map *m,
			const struct fp_geom *g, uint64_t base);

/* The same as one JSON object (an element of the "files" array). */
void cli_report_map_json(FILE *out, const char *path, const struct fp_map *m,
			const struct fp_geom *g, uint64_t base);

/* What --list prints of the volume, above its entries. */
struct cli_list_vol {
	const struct fp_geom *g;
	uint64_t base;		/* the volume's offset in the image */
	int has_label;		/* the root's label entry */
	uint8_t label[11];
	uint32_t free_count, run_start, run_count;
	const char *path;	/* the ::PATH listed, without :: */
	int hash;		/* --hash */
};

/* The volume's lines of a --list, before the entries. */
void cli_report_list_head_text(FILE *out, const struct cli_list_vol *v);

/* One entry's line; @hash its hex SHA-256, or NULL (a directory). */
void cli_report_list_entry_text(FILE *out, const struct fp_list_entry *e,
			       const char *hash, int hashing);

/* The JSON document up to its "entries" array, opened. */
void cli_report_list_head_json(FILE *out, const char *image,
			      const struct cli_list_vol *v);

/* One element of "entries" (@first: no comma before it). */
void cli_report_list_entry_json(FILE *out, const struct fp_list_entry *e,
			       const struct cli_list_vol *v,
			       const char *hash, int first);

/* Close the document that cli_report_list_head_json() opened. */
void cli_report_list_end_json(FILE *out);

/*
 * A progress line on a terminal: "\rPROG: WHAT 'IMAGE':  42%", redrawn at
 * most ten times per second, ended with a newline at 100% (or by
 * cli_meter_end() when the work stopped short).  The strings are borrowed.
 */
struct cli_meter {
	FILE *out;
	const char *prog, *what, *image;
	double last;		/* when the line was last drawn, seconds */
	int pct;		/* percentage drawn last, -1: none */
	int open;		/* a line is drawn and not ended */
};

void cli_meter_init(struct cli_meter *m, FILE *out, const char *prog,
		   const char *what, const char *image);

/* The fp_progress callback; @ctx is the struct cli_meter. */
void cli_meter_update(void *ctx, uint64_t done, uint64_t total);

/* End a line left open; call before printing anything else. */
void cli_meter_end(struct cli_meter *m);

/* Write @s as a JSON string literal. */
void cli_report_json_string(FILE *out, const char *s);

/* Write the @len bytes at @s as a JSON string literal. */
void cli_report_json_bytes(FILE *out, const char *s, size_t len);

#endif
