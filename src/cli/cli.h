/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* cli.h - the command line's parsed options and exit codes (CLI only). */
#ifndef FP_CLI_H
#define FP_CLI_H

#include <popt.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "reqs.h"

/* Exit codes, as fsck(8). */
#define EXIT_OK 0
#define EXIT_INCONSISTENT 4
#define EXIT_OPERATIONAL 8
#define EXIT_USAGE 16

#define PROG "fatprealloc"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* One --manifest FILE. */
struct cli_manifest {
	char *name;		/* FILE, or - for standard input; owned */
	char *buf;		/* its text once read: owns its reqs' strings */
};

struct cli {
	int keep_size, zero, contiguous, parents, punch_holes;
	int dry_run, json, verbose, quiet, no_sync, force;
	int help, version;
	int verify, strict, wait, map, progress, trim, fill_holes;
	char *partition_arg;	/* -P N */
	char *progress_fd_arg;	/* -C FD */
	char *place;		/* --place start|end */
	int progress_fd;	/* -C FD: completion lines, else -1 */
	unsigned partition;
	int has_offset;
	char *timestamp;
	char *offset_arg;	/* -o BYTES */
	char *image;		/* IMAGE without any @@OFFSET */
	uint64_t offset;
	struct fp_reqs rq;	/* the requests, copies' sources */
	struct cli_manifest *manifests;	/* every --manifest, in order */
	size_t manifest_count, manifest_cap;
	int64_t time;
	int utc;
	int clamp;		/* -t or SOURCE_DATE_EPOCH: copies' mtimes
				 * later than time become time */
	poptContext con;	/* owns the argument strings */
};

#endif
