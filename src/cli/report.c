/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* report.c - render plans and results as text or JSON (CLI only). */
#include "report.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "dir.h"
#include "edit_attr.h"
#include "name.h"
#include "profile.h"

static const char *action_name(const struct fp_plan_file *f)
{
	if (f->src && f->action == FP_ACT_CREATE)
		return "copy";
	switch (f->action) {
	case FP_ACT_CREATE:
		return "create";
	case FP_ACT_EXTEND:
		return "extend";
	case FP_ACT_TRIM:
		return "trim";
	case FP_ACT_REMOVE:
		return "remove";
	case FP_ACT_MKDIR:
		return "mkdir";
	case FP_ACT_ATTR:
		return "attr";
	case FP_ACT_LABEL:
		return "label";
	case FP_ACT_REPLACE:
		return "replace";
	case FP_ACT_MOVE:
		return "move";
	default:
		return "none";
	}
}

static void text_extents(FILE *out, const struct fp_plan_file *f)
{
	size_t i;

	for (i = 0; i < f->ext_count; i++)
		fprintf(out, "%s%" PRIu32 "-%" PRIu32, i ? "," : " ",
			f->ext[i].start,
			f->ext[i].start + f->ext[i].count - 1);
}

/* "attr ::PATH: ---a -> rhs-", with "(unchanged)" when they are equal */
static void text_attr(FILE *out, const struct fp_plan_file *f)
{
	char a[5], b[5];

	fp_edit_attr_letters(f->old_attr, a);
	fp_edit_attr_letters(f->new_attr, b);
	fprintf(out, "attr ::%s: %s -> %s%s\n", f->path, a, b,
		f->old_attr == f->new_attr ? " (unchanged)" : "");
}

/* @lab as UTF-8 into @out (3 * 11 + 1 bytes); all spaces: "". */
static void label_text(const uint8_t lab[11], char *out, size_t len)
{
	uint16_t u[11];

	fp_name_to_utf8(u, fp_name_label_decode(lab, u), out, len);
}

/* "label: 'OLD' -> 'NEW'", (none) for no label */
static void text_label(FILE *out, const struct fp_plan_file *f)
{
	char a[3 * 11 + 1], b[3 * 11 + 1];

	label_text(f->old_label, a, sizeof(a));
	label_text(f->new_label, b, sizeof(b));
	fprintf(out, "label: %s%s%s -> %s%s%s\n", *a ? "'" : "",
		*a ? a : "(none)", *a ? "'" : "", *b ? "'" : "",
		*b ? b : "(none)", *b ? "'" : "");
}

/* "largest free run: 812 clusters (3325952 bytes, 3.2 MiB) from cluster
 * 2031", without a newline */
static void text_run(FILE *out, uint32_t start, uint32_t count,
		     uint32_t clus_len)
{
	uint64_t len = (uint64_t)count * clus_len;

	fprintf(out, "largest free run: %" PRIu32 " cluster%s (%" PRIu64
		" bytes, %.1f MiB)", count, count == 1 ? "" : "s", len,
		(double)len / (1024 * 1024));
	if (count)
		fprintf(out, " from cluster %" PRIu32, start);
}

void cli_report_plan_text(FILE *out, const struct fp_fs *fs,
			 const struct fp_plan *plan,
			 const struct cli_free_space *sp, int done)
{
	uint32_t clus_len = fp_fs_geom(fs)->clus_len;
	const struct fp_plan_file *files;
	const struct fp_plan_dir *dirs;
	size_t i, nfiles, ndirs;

	dirs = fp_plan_made_dirs(plan, &ndirs);
	for (i = 0; i < ndirs; i++) {
		fputs("mkdir ::", out);
		fwrite(dirs[i].path, 1, dirs[i].len, out);
		fputc('\n', out);
	}
	files = fp_plan_files(plan, &nfiles);
	for (i = 0; i < nfiles; i++) {
		const struct fp_plan_file *f = &files[i];

		if (f->is_dir)	/* created: in the mkdir lines above */
			continue;
		if (f->action == FP_ACT_REMOVE) {
			fprintf(out, "remove ::%s: size %" PRIu32 ", %" PRIu32
				" cluster%s freed\n", f->path, f->old_size,
				f->freed, f->freed == 1 ? "" : "s");
			continue;
		}
		if (f->action == FP_ACT_ATTR) {
			text_attr(out, f);
			continue;
		}
		if (f->action == FP_ACT_LABEL) {
			text_label(out, f);
			continue;
		}
		if (f->to) {	/* a move: no data, no clusters */
			fprintf(out, "%s ::%s -> ::%s", action_name(f),
				f->path, f->to);
			if (f->freed)
				fprintf(out, ": replaces a file, %" PRIu32
					" clusters freed", f->freed);
			fputc('\n', out);
			continue;
		}
		if (f->action == FP_ACT_TRIM) {
			fprintf(out, "trim ::%s: size %" PRIu32 ", clusters %"
				PRIu32 " -> %" PRIu32 "\n", f->path,
				f->old_size, f->old_clusters,
				f->old_clusters - f->freed);
			continue;
		}
		fprintf(out, "%s ::%s: size %" PRIu32 " -> %" PRIu32
			", clusters %" PRIu32 " %s %" PRIu32,
			action_name(f), f->path, f->old_size,
			f->new_size, f->old_clusters,
			/* a new chain, the old one freed */
			f->action == FP_ACT_REPLACE ? "->" : "+",
			f->new_clusters);
		text_extents(out, f);
		fputc('\n', out);
	}
	if (fp_plan_is_trim(plan)) {
		fprintf(out, "%s %" PRIu32 " clusters of %" PRIu32 " bytes\n",
			done ? "freed" : "would free",
			fp_plan_freed_count(plan), clus_len);
		return;
	}
	fprintf(out, "%s %" PRIu32 " clusters of %" PRIu32 " bytes",
		done ? "allocated" : "would allocate",
		fp_plan_alloc_count(plan), clus_len);
	if (fp_plan_freed_count(plan))
		fprintf(out, ", %s %" PRIu32, done ? "freed" : "would free",
			fp_plan_freed_count(plan));
	fprintf(out, "; %" PRIu32 " free\n", sp->count);
	text_run(out, sp->run_start, sp->run_count, clus_len);
	fputc('\n', out);
}

/*
 * Host names are bytes, JSON text is UTF-8: a byte that does not belong
 * to a valid UTF-8 sequence is written as the lone surrogate \udcXX, as
 * Python's surrogateescape (os.fsdecode) reads it, so that such a string
 * encoded back that way is the original bytes (docs/JSON.md).
 */
void cli_report_json_string(FILE *out, const char *s)
{
	cli_report_json_bytes(out, s, strlen(s));
}

void cli_report_json_bytes(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = len, n;

	fputc('"', out);
	for (; left; p += n, left -= n) {
		n = *p < 0x80 ? 1 : fp_name_utf8_len((const char *)p, left);
		if (!n) {
			fprintf(out, "\\u%04x", 0xDC00u | *p);
			n = 1;
		} else if (n > 1) {
			fwrite(p, 1, n, out);
		} else if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p);
		} else if (*p < 0x20) {
			fprintf(out, "\\u%04x", *p);
		} else {
			fputc(*p, out);
		}
	}
	fputc('"', out);
}

static void json_file(FILE *out, const struct fp_plan_file *f)
{
	char a[5], b[5], la[3 * 11 + 1], lb[3 * 11 + 1];
	size_t i;

	fputs("{\"path\":", out);
	cli_report_json_string(out, f->path);
	if (f->src) {
		fputs(",\"source\":", out);
		cli_report_json_string(out, f->src);
	}
	if (f->to) {
		fputs(",\"to\":", out);
		cli_report_json_string(out, f->to);
		fprintf(out, ",\"freed_clusters\":%" PRIu32, f->freed);
	}
	fprintf(out, ",\"action\":\"%s\",\"old_size\":%" PRIu32
		",\"new_size\":%" PRIu32 ",\"old_clusters\":%" PRIu32
		",\"new_clusters\":%" PRIu32 ",\"first_cluster\":%" PRIu32
		",\"extents\":[", action_name(f), f->old_size,
		f->new_size, f->old_clusters, f->new_clusters, f->first_cl);
	for (i = 0; i < f->ext_count; i++)
		fprintf(out, "%s{\"start\":%" PRIu32 ",\"count\":%" PRIu32 "}",
			i ? "," : "", f->ext[i].start, f->ext[i].count);
	fprintf(out, "],\"freed_clusters\":%" PRIu32,
		f->action == FP_ACT_REMOVE ? f->freed : 0);
	if (f->action == FP_ACT_ATTR) {
		fp_edit_attr_letters(f->old_attr, a);
		fp_edit_attr_letters(f->new_attr, b);
		fprintf(out, ",\"old_attributes\":\"%s\",\"new_attributes\":"
			"\"%s\"", a, b);
	}
	if (f->action == FP_ACT_LABEL) {
		label_text(f->old_label, la, sizeof(la));
		label_text(f->new_label, lb, sizeof(lb));
		fputs(",\"old_label\":", out);
		cli_report_json_string(out, la);
		fputs(",\"new_label\":", out);
		cli_report_json_string(out, lb);
	}
	fputc('}', out);
}

void cli_report_plan_json(FILE *out, const char *image,
			 const struct fp_fs *fs, const struct fp_plan *plan,
			 const struct cli_free_space *sp, int dry_run)
{
	const struct fp_geom *g = fp_fs_geom(fs);
	const struct fp_plan_file *files;
	const struct fp_plan_dir *dirs;
	size_t i, n, nfiles, ndirs;

	fputs("{\"image\":", out);
	cli_report_json_string(out, image);
	fprintf(out, ",\"dry_run\":%s,\"fat_type\":%d,\"cluster_size\":%"
		PRIu32 ",\"allocated_clusters\":%" PRIu32
		",\"free_clusters\":%" PRIu32 ",\"largest_free_run\":%" PRIu32
		",\"largest_free_run_bytes\":%" PRIu64
		",\"largest_free_run_start\":%" PRIu32
		",\"directories_created\":[",
		dry_run ? "true" : "false", (int)g->type,
		g->clus_len, fp_plan_alloc_count(plan), sp->count,
		sp->run_count, (uint64_t)sp->run_count * g->clus_len,
		sp->run_start);
	dirs = fp_plan_made_dirs(plan, &ndirs);
	for (i = 0; i < ndirs; i++) {
		if (i)
			fputc(',', out);
		cli_report_json_bytes(out, dirs[i].path, dirs[i].len);
	}
	fputs("],\"files\":[", out);
	files = fp_plan_files(plan, &nfiles);
	for (i = 0, n = 0; i < nfiles; i++) {
		if (files[i].is_dir)	/* in directories_created */
			continue;
		if (n++)
			fputc(',', out);
		json_file(out, &files[i]);
	}
	fputs("]}\n", out);
}

static const char *severity_name(enum fp_problem p)
{
	return fp_problem_severity(p) == FP_SEV_ERROR ? "error" : "warning";
}

void cli_report_verify_text(FILE *out, const struct fp_report *r)
{
	struct fp_report_summary s;
	char msg[512];
	size_t i;
	int p;

	fp_report_summary(r, &s);
	for (i = 0; i < fp_report_finding_count(r); i++) {
		const struct fp_finding *f = fp_report_finding(r, i);

		fp_problem_format(f, msg, sizeof(msg));
		fprintf(out, "%s: %s: %s [%s]\n", f->path[0] ? f->path :
			"volume", severity_name(f->problem), msg,
			fp_problem_code(f->problem));
	}
	for (p = 0; p < FP_P_COUNT; p++)
		if (fp_report_dropped(r, (enum fp_problem)p))
			fprintf(out, "... and %" PRIu64 " more [%s] findings "
				"not shown\n",
				fp_report_dropped(r, (enum fp_problem)p),
				fp_problem_code((enum fp_problem)p));
	fprintf(out, "%" PRIu64 " files, %" PRIu64 " directories; clusters: "
		"%" PRIu64 " used, %" PRIu64 " free, %" PRIu64 " bad, %"
		PRIu64 " lost; ", s.files, s.dirs, s.used, s.free_cl,
		s.bad, s.lost);
	text_run(out, s.run_start, s.run_count, s.geom.clus_len);
	fprintf(out, "; %" PRIu64 " errors, %" PRIu64 " warnings\n",
		s.errors, s.warnings);
}

static void json_finding(FILE *out, const struct fp_finding *f)
{
	char msg[512];

	fp_problem_format(f, msg, sizeof(msg));
	fprintf(out, "{\"code\":\"%s\",\"severity\":\"%s\",\"path\":",
		fp_problem_code(f->problem), severity_name(f->problem));
	cli_report_json_string(out, f->path);
	if (f->cl)
		fprintf(out, ",\"clusters\":[%" PRIu32 "]", f->cl);
	else
		fputs(",\"clusters\":[]", out);
	if (f->other) {
		fputs(",\"other\":", out);
		cli_report_json_string(out, f->other);
	}
	if (f->rule) {
		fputs(",\"rule\":", out);
		cli_report_json_string(out, fp_profile_rule_name(f->rule));
		fprintf(out, ",\"figure\":%" PRIu64 ",\"limit\":%" PRIu64,
			f->a, f->b);
	}
	fputs(",\"message\":", out);
	cli_report_json_string(out, msg);
	fputc('}', out);
}

static void json_geometry(FILE *out, const struct fp_geom *g)
{
	fprintf(out, "{\"fat_type\":%d,\"sector_size\":%" PRIu32
		",\"cluster_size\":%" PRIu32 ",\"clusters\":%" PRIu32
		",\"fat_count\":%" PRIu32 ",\"fat_sectors\":%" PRIu32
		",\"volume_size\":%" PRIu64 ",\"data_offset\":%" PRIu64
		",\"mirrored\":%s}", (int)g->type, g->sec_len, g->clus_len,
		g->cluster_count, g->fat_count, g->fat_secs, g->vol_len,
		g->data_off, g->mirror ? "true" : "false");
}

void cli_report_verify_json(FILE *out, const char *image,
			   const char *profile, const struct fp_report *r)
{
	struct fp_report_summary s;
	size_t i;
	int p, n = 0;

	fp_report_summary(r, &s);
	fputs("{\"image\":", out);
	cli_report_json_string(out, image);
	if (profile) {
		fputs(",\"profile\":", out);
		cli_report_json_string(out, profile);
	}
	fputs(",\"geometry\":", out);
	json_geometry(out, &s.geom);
	fprintf(out, ",\"counts\":{\"files\":%" PRIu64 ",\"directories\":%"
		PRIu64 ",\"clusters_used\":%" PRIu64 ",\"clusters_free\":%"
		PRIu64 ",\"clusters_bad\":%" PRIu64 ",\"clusters_lost\":%"
		PRIu64 ",\"largest_free_run\":%" PRIu32
		",\"largest_free_run_bytes\":%" PRIu64
		",\"largest_free_run_start\":%" PRIu32 ",\"errors\":%" PRIu64
		",\"warnings\":%" PRIu64 "},\"findings\":[", s.files, s.dirs,
		s.used, s.free_cl, s.bad, s.lost, s.run_count,
		(uint64_t)s.run_count * s.geom.clus_len, s.run_start,
		s.errors, s.warnings);
	for (i = 0; i < fp_report_finding_count(r); i++) {
		if (i)
			fputc(',', out);
		json_finding(out, fp_report_finding(r, i));
	}
	fputs("],\"dropped\":{", out);
	for (p = 0; p < FP_P_COUNT; p++)
		if (fp_report_dropped(r, (enum fp_problem)p))
			fprintf(out, "%s\"%s\":%" PRIu64, n++ ? "," : "",
				fp_problem_code((enum fp_problem)p),
				fp_report_dropped(r, (enum fp_problem)p));
	fputs("}}\n", out);
}

void cli_report_map_text(FILE *out, const char *path, const struct fp_map *m,
			const struct fp_geom *g, uint64_t base)
{
	size_t i;

	fprintf(out, "::%s: %s%" PRIu32 " bytes, %" PRIu32 " clusters of %"
		PRIu32 " bytes in %zu extent%s\n", path,
		m->is_dir ? "directory, " : "", m->size, m->clusters,
		g->clus_len, m->ext_count, m->ext_count == 1 ? "" : "s");
	for (i = 0; i < m->ext_count; i++) {
		const struct fp_extent *e = &m->ext[i];
		uint64_t off = fp_geom_cl_off(g, e->start);

		fprintf(out, "  clusters %" PRIu32 "-%" PRIu32 " (%" PRIu32
			"): image offset %" PRIu64 ", volume offset %" PRIu64
			", %" PRIu64 " bytes\n", e->start,
			e->start + e->count - 1, e->count, base + off, off,
			(uint64_t)e->count * g->clus_len);
	}
}

void cli_report_map_json(FILE *out, const char *path, const struct fp_map *m,
			const struct fp_geom *g, uint64_t base)
{
	size_t i;

	fputs("{\"path\":", out);
	cli_report_json_string(out, path);
	fprintf(out, ",\"directory\":%s,\"size\":%" PRIu32 ",\"clusters\":%"
		PRIu32 ",\"contiguous\":%s,\"extents\":[",
		m->is_dir ? "true" : "false", m->size, m->clusters,
		m->ext_count <= 1 ? "true" : "false");
	for (i = 0; i < m->ext_count; i++) {
		const struct fp_extent *e = &m->ext[i];
		uint64_t off = fp_geom_cl_off(g, e->start);

		fprintf(out, "%s{\"start\":%" PRIu32 ",\"count\":%" PRIu32
			",\"image_offset\":%" PRIu64 ",\"volume_offset\":%"
			PRIu64 ",\"length\":%" PRIu64 "}", i ? "," : "",
			e->start, e->count, base + off, off,
			(uint64_t)e->count * g->clus_len);
	}
	fputs("]}", out);
}

/* ---- --list -------------------------------------------------------- */

/* The label @lab (11 bytes as stored) in UTF-8 into @out. */
static void label_utf8(const uint8_t lab[11], char out[3 * 11 + 1])
{
	uint16_t u[11];
	size_t n = fp_name_label_decode(lab, u);

	fp_name_to_utf8(u, n, out, 3 * 11 + 1);
}

/*
 * @len bytes of a name: control bytes and DEL as \ooo, a backslash as
 * two, as ls -b shows them, so that a listing is one line an entry.
 */
static void text_name(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < len; i++) {
		if (p[i] < 0x20 || p[i] == 0x7F)
			fprintf(out, "\\%03o", p[i]);
		else if (p[i] == '\\')
			fputs("\\\\", out);
		else
			fputc(p[i], out);
	}
}

void cli_report_list_head_text(FILE *out, const struct cli_list_vol *v)
{
	const struct fp_geom *g = v->g;
	char lab[3 * 11 + 1];

	fprintf(out, "volume: FAT%d, %" PRIu32 " clusters of %" PRIu32
		" bytes, at offset %" PRIu64 "\n", (int)g->type,
		g->cluster_count, g->clus_len, v->base);
	fputs("label: ", out);
	if (v->has_label) {
		label_utf8(v->label, lab);
		fprintf(out, "'%s'", lab);
	} else {
		fputs("none", out);
	}
	if (g->has_label) {
		label_utf8(g->label, lab);
		fprintf(out, ", boot sector '%s', serial %04" PRIX32 "-%04"
			PRIX32, lab, g->serial >> 16, g->serial & 0xFFFF);
	}
	fprintf(out, "\nfree: %" PRIu32 " clusters (%" PRIu64 " bytes), "
		"largest free run %" PRIu32 " clusters", v->free_count,
		(uint64_t)v->free_count * g->clus_len, v->run_count);
	if (v->run_count)
		fprintf(out, " from cluster %" PRIu32, v->run_start);
	fputc('\n', out);
}

/* "d-ash-r" style: directory, archive, system, hidden, read-only. */
static void attr_text(uint8_t a, char s[6])
{
	s[0] = a & FP_ATTR_DIR ? 'd' : '-';
	s[1] = a & FP_ATTR_ARCHIVE ? 'a' : '-';
	s[2] = a & FP_ATTR_SYSTEM ? 's' : '-';
	s[3] = a & FP_ATTR_HIDDEN ? 'h' : '-';
	s[4] = a & FP_ATTR_RO ? 'r' : '-';
	s[5] = '\0';
}

#define LIST_RUNS_SHOWN 4	/* runs a text line shows, then +N */

void cli_report_list_entry_text(FILE *out, const struct fp_list_entry *e,
			       const char *hash, int hashing)
{
	const struct fp_list_time *t = &e->modified;
	char attr[6];
	size_t i;

	attr_text(e->attr, attr);
	fprintf(out, "%s %10" PRIu32 " ", attr, e->size);
	if (t->valid)
		fprintf(out, "%04d-%02d-%02d %02d:%02d:%02d", t->year,
			t->month, t->day, t->hour, t->minute, t->second);
	else
		fputs("-------------------", out);
	fprintf(out, " %8" PRIu32 " ", e->first_cl);
	for (i = 0; i < e->run_count && i < LIST_RUNS_SHOWN; i++) {
		const struct fp_extent *r = &e->runs[i];

		fprintf(out, "%s%" PRIu32, i ? "," : "", r->start);
		if (r->count > 1)
			fprintf(out, "-%" PRIu32, r->start + r->count - 1);
	}
	if (e->run_count > LIST_RUNS_SHOWN)
		fprintf(out, ",+%zu", e->run_count - LIST_RUNS_SHOWN);
	if (!e->run_count)
		fputc('-', out);
	if (hashing)
		fprintf(out, " %-64s", hash ? hash : "-");
	fputc(' ', out);
	text_name(out, e->path, e->path_len);
	fputc('\n', out);
}

void cli_report_list_head_json(FILE *out, const char *image,
			      const struct cli_list_vol *v)
{
	const struct fp_geom *g = v->g;
	char lab[3 * 11 + 1];

	fputs("{\"image\":", out);
	cli_report_json_string(out, image);
	fprintf(out, ",\"volume_offset\":%" PRIu64 ",\"volume\":{"
		"\"fat_type\":%d,\"cluster_size\":%" PRIu32 ",\"clusters\":%"
		PRIu32, v->base, (int)g->type, g->clus_len, g->cluster_count);
	if (v->has_label) {
		label_utf8(v->label, lab);
		fputs(",\"label\":", out);
		cli_report_json_string(out, lab);
	}
	if (g->has_label) {
		label_utf8(g->label, lab);
		fputs(",\"boot_label\":", out);
		cli_report_json_string(out, lab);
		fprintf(out, ",\"serial\":\"%04" PRIX32 "-%04" PRIX32 "\"",
			g->serial >> 16, g->serial & 0xFFFF);
	}
	fprintf(out, ",\"free_clusters\":%" PRIu32 ",\"largest_free_run\":%"
		PRIu32 ",\"largest_free_run_start\":%" PRIu32 "},\"path\":",
		v->free_count, v->run_count, v->run_start);
	cli_report_json_string(out, v->path);
	fprintf(out, ",\"hash\":%s,\"entries\":[", v->hash ? "true" : "false");
}

/* "name":{"date":D,"time":T,...,"iso":"..."}: a time stamp as stored. */
static void json_time(FILE *out, const char *name,
		      const struct fp_list_time *t, int has_time,
		      int has_tenth)
{
	fprintf(out, ",\"%s\":{\"date\":%u", name, t->date);
	if (has_time)
		fprintf(out, ",\"time\":%u", t->time);
	if (has_tenth)
		fprintf(out, ",\"tenth\":%u", t->tenth);
	if (t->valid) {
		fprintf(out, ",\"iso\":\"%04d-%02d-%02d", t->year, t->month,
			t->day);
		if (has_time)
			fprintf(out, "T%02d:%02d:%02d", t->hour, t->minute,
				t->second);
		if (has_tenth)
			fprintf(out, ".%02d", t->centi);
		fputc('"', out);
	}
	fputc('}', out);
}

static void json_attrs(FILE *out, uint8_t a)
{
	static const struct {
		uint8_t bit;
		const char *name;
	} f[] = {
		{ FP_ATTR_RO, "read_only" }, { FP_ATTR_HIDDEN, "hidden" },
		{ FP_ATTR_SYSTEM, "system" }, { FP_ATTR_DIR, "directory" },
		{ FP_ATTR_ARCHIVE, "archive" },
	};
	size_t i;
	int n = 0;

	fprintf(out, ",\"attributes\":%u,\"flags\":[", a);
	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (a & f[i].bit)
			fprintf(out, "%s\"%s\"", n++ ? "," : "", f[i].name);
	fputc(']', out);
}

void cli_report_list_entry_json(FILE *out, const struct fp_list_entry *e,
			       const struct cli_list_vol *v,
			       const char *hash, int first)
{
	size_t i;

	fputs(first ? "{\"path\":" : ",{\"path\":", out);
	cli_report_json_bytes(out, e->path, e->path_len);
	fputs(",\"name\":", out);
	cli_report_json_string(out, e->name);
	fputs(",\"alias\":", out);
	cli_report_json_string(out, e->alias);
	fprintf(out, ",\"long_name\":%s,\"depth\":%u,\"directory\":%s",
		e->has_lfn ? "true" : "false", e->depth,
		e->attr & FP_ATTR_DIR ? "true" : "false");
	json_attrs(out, e->attr);
	fprintf(out, ",\"ntres\":%u,\"size\":%" PRIu32, e->ntres, e->size);
	json_time(out, "created", &e->created, 1, 1);
	json_time(out, "modified", &e->modified, 1, 0);
	json_time(out, "accessed", &e->accessed, 0, 0);
	fprintf(out, ",\"first_cluster\":%" PRIu32 ",\"clusters\":%" PRIu32
		",\"contiguous\":%s,\"extents\":[", e->first_cl, e->clusters,
		e->run_count <= 1 ? "true" : "false");
	for (i = 0; i < e->run_count; i++) {
		const struct fp_extent *r = &e->runs[i];
		uint64_t off = fp_geom_cl_off(v->g, r->start);

		fprintf(out, "%s{\"start\":%" PRIu32 ",\"count\":%" PRIu32
			",\"image_offset\":%" PRIu64 ",\"volume_offset\":%"
			PRIu64 ",\"length\":%" PRIu64 "}", i ? "," : "",
			r->start, r->count, v->base + off, off,
			(uint64_t)r->count * v->g->clus_len);
	}
	fputc(']', out);
	if (hash)
		fprintf(out, ",\"sha256\":\"%s\"", hash);
	fputc('}', out);
}

void cli_report_list_end_json(FILE *out)
{
	fputs("]}\n", out);
}

void cli_meter_init(struct cli_meter *m, FILE *out, const char *prog,
		   const char *what, const char *image)
{
	m->out = out;
	m->prog = prog;
	m->what = what;
	m->image = image;
	m->last = 0;
	m->pct = -1;
	m->open = 0;
}

static double now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_meter_update(void *ctx, uint64_t done, uint64_t total)
{
	struct cli_meter *m = ctx;
	int pct = total ? (int)((double)done / (double)total * 100) : 100;
	double t = now();

	if (done >= total)
		pct = 100;
	else if (pct > 99)
		pct = 99;
	if (pct == m->pct || (pct < 100 && m->pct >= 0 && t - m->last < 0.1))
		return;
	fprintf(m->out, "\r%s: %s '%s': %3d%%", m->prog, m->what, m->image,
		pct);
	m->last = t;
	m->pct = pct;
	m->open = 1;
	if (pct == 100)
		cli_meter_end(m);
	else
		fflush(m->out);
}

void cli_meter_end(struct cli_meter *m)
{
	if (!m->open)
		return;
	fputc('\n', m->out);
	fflush(m->out);
	m->open = 0;
}
