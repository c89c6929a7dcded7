/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* extract.h - copy a volume's file or tree out to the host (--extract). */
#ifndef FP_EXTRACT_H
#define FP_EXTRACT_H

#include "fp_err.h"
#include "fs.h"
#include "problem.h"

struct fp_extract_opts {
	int replace;	/* existing host files are overwritten */
	int utc;	/* stored times are UTC (else local time) */
};

/* Where and why an extraction stopped. */
struct fp_extract_diag {
	char *path;	/* malloc'd: the volume path concerned, or NULL */
	char *host;	/* malloc'd: the host path concerned, or NULL */
	int errnum;	/* FP_E_HOST: errno */
	enum fp_problem problem;	/* FP_E_DAMAGED: what is wrong */
};

/*
 * Copy the file or directory @path of @fs ("" or "/": the root's entries)
 * to the host path @dest: into it when it is a directory (the root's
 * entries fill it), else as it (created).  Contents byte for byte;
 * modification times as stored, read as UTC with @o->utc, else as local
 * time (a stamp that is no date is left alone); directories' after their
 * content.  Attributes are not copied.
 *
 * First a pass that writes nothing: it walks the whole tree (the
 * iterator's damage checks: FP_E_DAMAGED), refuses names a host cannot
 * hold or that would reach a terminal raw, control bytes 0x01-0x1F and
 * 0x7F and names over 255 bytes (FP_E_HOSTNAME), and, when @dest exists,
 * files that exist (FP_E_EXISTS, unless @o->replace: then only what is
 * not a regular file) and non-directories where a directory goes.  Then
 * the pass that writes, each name made with openat()/mkdirat() relative
 * to its directory's descriptor, O_NOFOLLOW and O_EXCL (O_NOFOLLOW and a
 * regular file only with @o->replace): no symbolic link on the host is
 * followed below @dest, and nothing outside it is written.  Existing
 * directories are merged into.  A failure in that pass (FP_E_HOST with
 * errno, FP_E_EXISTS when the host changed between the passes, FP_E_IO)
 * leaves what was written before it, but never a file it created half
 * written.  @diag says where (fp_extract_diag_release()).
 */
enum fp_err fp_extract(struct fp_fs *fs, const char *path, const char *dest,
		       const struct fp_extract_opts *o,
		       struct fp_extract_diag *diag);

/* Free the paths of @diag and clear it. */
void fp_extract_diag_release(struct fp_extract_diag *diag);

#endif
