/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* messages.h - the command line's error messages (CLI only). */
#ifndef FP_MESSAGES_H
#define FP_MESSAGES_H

#include "cli.h"
#include "extract.h"
#include "fs.h"
#include "image.h"
#include "list.h"
#include "mirror.h"
#include "plan.h"
#include "vol.h"

/* "fatprealloc: " then the printf-style message and a newline, on stderr. */
__attribute__((format(printf, 1, 2)))
void cli_msg(const char *fmt, ...);

/* The exit status of @err: its class in fp_err.def (FP_OK: EXIT_OK). */
int cli_exit_code(enum fp_err err);

/* The line after a usage error's message; returns EXIT_USAGE. */
int cli_try_help(void);

/* "fatprealloc: " @fmt with @arg, then the try-help line: EXIT_USAGE. */
int cli_usage_error(const char *fmt, const char *arg);

/* Say why opening or reading the volume failed; returns the exit code. */
int cli_fs_error(const struct cli *c, struct fp_img *img, enum fp_err err);

/*
 * Say why an inconsistent volume is refused (FP_E_FATDIFF, FP_E_DIRTY):
 * EXIT_INCONSISTENT; any other @err says nothing: EXIT_OPERATIONAL.
 */
int cli_check_error(const struct cli *c, enum fp_err err,
		const struct fp_fs_diag *d);

/* Say that the request of @d does not fit (no space, full directory). */
void cli_no_room(const struct cli *c, enum fp_err err,
	     const struct fp_plan_diag *d, const struct fp_geom *g);

/* A path or file that the plan refuses to write through. */
void cli_damaged(const struct cli *c, const struct fp_plan_diag *d);

/* Say what is wrong with the path of the request of @d. */
void cli_bad_path(const struct cli *c, enum fp_err err,
	      const struct fp_plan_diag *d, const struct fp_geom *g);

/* Say why planning or committing failed; returns the exit code. */
int cli_plan_error(const struct cli *c, struct fp_img *img,
	       enum fp_err err, const struct fp_plan_diag *d,
	       const struct fp_geom *g);

/*
 * Say why --list of ::@path failed (fp_list_open(), fp_list_next(),
 * fp_list_hash()); returns the exit code.
 */
int cli_list_error(const struct cli *c, struct fp_img *img, enum fp_err err,
		   const struct fp_list_diag *d);

/*
 * Say why fp_vol_open() failed (@err, at the step of @d); returns the exit
 * code: EXIT_INCONSISTENT for an overlapping partition.
 */
int cli_vol_error(const struct cli *c, enum fp_err err,
	      const struct fp_vol_diag *d);

/*
 * What the opened volume's partition gives to say: an overlap (--map), a
 * GPT read through its backup, the partition used (-v).
 */
void cli_vol_notes(const struct cli *c, const struct fp_locate *loc);

/* Say why --extract failed (@err, @d); returns the exit code. */
int cli_extract_error(const struct cli *c, struct fp_img *img,
		      enum fp_err err, const struct fp_extract_diag *d);

/*
 * Say why --mirror could not list the volume's side or read the host's
 * (fp_mirror_add(), @err, @d); returns the exit code.
 */
int cli_mirror_error(const struct cli *c, struct fp_img *img,
		     enum fp_err err, const struct fp_mirror_diag *d);

/* Say why --diff could not compare (@err, @d, of @c's image). */
int cli_diff_error(const struct cli *c, struct fp_img *img, enum fp_err err,
		   const struct fp_list_diag *d);

#endif
