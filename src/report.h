/* report.h - render plans and results as text or JSON (CLI only). */
#ifndef FP_REPORT_H
#define FP_REPORT_H

#include <stdio.h>

#include "plan.h"
#include "verify.h"

/* One line a directory and a file, then a summary line. */
void fp_report_plan_text(FILE *out, const struct fp_fs *fs,
			 const struct fp_plan *plan, int done);

/* The plan as one JSON document. */
void fp_report_plan_json(FILE *out, const char *image,
			 const struct fp_fs *fs, const struct fp_plan *plan,
			 int dry_run);

/* One line a finding, then what was dropped, then a summary line. */
void fp_report_verify_text(FILE *out, const struct fp_report *r);

/* The check as one JSON document. */
void fp_report_verify_json(FILE *out, const char *image,
			   const struct fp_report *r);

/*
 * One file's extents: clusters, byte offset in the image (@base is the
 * volume's offset in it) and in the volume, length.
 */
void fp_report_map_text(FILE *out, const char *path, const struct fp_map *m,
			const struct fp_geom *g, uint64_t base);

/* The same as one JSON object (an element of the "files" array). */
void fp_report_map_json(FILE *out, const char *path, const struct fp_map *m,
			const struct fp_geom *g, uint64_t base);

/* Write @s as a JSON string literal. */
void fp_report_json_string(FILE *out, const char *s);

#endif
