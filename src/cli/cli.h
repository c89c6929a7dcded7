/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* cli.h - the command line's parsed options and exit codes (CLI only). */
#ifndef FP_CLI_H
#define FP_CLI_H

#include <popt.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "profile.h"
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

/* --mkfs's options as given (owned), parsed by cli_run_mkfs(). */
struct cli_mkfs_args {
	char *size, *free, *fat, *cluster, *sector, *fats, *reserved;
	char *hidden, *root, *media, *align, *label, *volume_id, *boot_code;
};

struct cli {
	int mkfs;
	struct cli_mkfs_args mk;
	int keep_size, zero, contiguous, parents, punch_holes;
	int dry_run, json, verbose, quiet, no_sync, force;
	int help, version;
	int verify, strict, wait, map, progress, trim, fill_holes;
	int list, hash;		/* --list [--hash] */
	const char *list_path;	/* its ::PATH without ::, or NULL; owned
				 * by con */
	int extract;		/* --extract */
	int replace;		/* --replace: copies, --mv and --extract
				 * may replace files */
	const char *ex_path;	/* --extract's ::PATH without ::, and */
	const char *ex_dest;	/* DEST; both owned by con */
	int diff, placement;	/* --diff [--placement] */
	char *image2;		/* --diff's IMAGE2 without @@OFFSET */
	uint64_t offset2;
	int has_offset2;
	int rm, mkdir, recursive;	/* --rm [-r], --mkdir [-p] */
	int mv;			/* --mv IMAGE ::FROM ::TO */
	int mirror;		/* --mirror IMAGE SRC_DIR ::DEST_DIR */
	const char *mirror_src;	/* SRC_DIR and DEST_DIR without ::, */
	const char *mirror_dest;	/* owned by con */
	char *partition_arg;	/* -P N */
	char *progress_fd_arg;	/* -C FD */
	char *place;		/* --place start|end */
	char *profile_arg;	/* --profile NAME */
	const struct fp_profile *profile;	/* its rules, NULL: none */
	char *attr_spec;	/* --attr SPEC: the run sets attributes */
	int label;		/* --label: print or set the label */
	int label_print;	/* --label IMAGE alone: print it */
	size_t label_count;	/* label requests (--label NAME, manifest) */
	int progress_fd;	/* -C FD: completion lines, else -1 */
	unsigned partition;
	int has_offset;
	char *timestamp;
	char *offset_arg;	/* -o BYTES */
	char *image;		/* IMAGE without any @@OFFSET */
	uint64_t offset;
	struct fp_reqs *rq;	/* the requests, copies' sources */
	struct cli_manifest *manifests;	/* every --manifest, in order */
	size_t manifest_count, manifest_cap;
	int64_t time;
	int utc;
	int clamp;		/* -t or SOURCE_DATE_EPOCH: copies' mtimes
				 * later than time become time */
	poptContext con;	/* owns the argument strings */
};

/* options.c */

/*
 * Read the command line into @c (zeroed): options, their conflicts, IMAGE,
 * the requests and every --manifest.  EXIT_OK, or the exit code after a
 * message; with --help or --version, EXIT_OK at once.
 */
int cli_parse_args(struct cli *c, int argc, const char **argv);

/*
 * A file named twice by the requests is a usage error (for --mirror,
 * found once the image is open): EXIT_OK, or the exit code after a
 * message.
 */
int cli_check_duplicates(const struct cli *c);

/* operands.c */

/* Say why the source tree cannot be copied, naming the host path. */
int cli_tree_error(const struct fp_tree_diag *d, enum fp_err err);

/*
 * The plan options the command line gives (progress left NULL): the same
 * for a run and for --mkfs's plan in memory.
 */
void cli_plan_opts(const struct cli *c, struct fp_plan_opts *po);

/* Append the request @path (after its ::) of @size; 0 or an exit code. */
int cli_add_req(struct cli *c, const char *path, uint64_t size);

/* Append the edit @ed of volume path @path (after its ::). */
int cli_add_edit(struct cli *c, const char *path,
		 const struct fp_req_edit *ed);

/* SRC ::DEST (@src, @dest with its ::): a request for each file copied. */
int cli_add_copy(struct cli *c, const char *src, const char *dest);

/*
 * Attribute SPEC @spec for ::PATH @path (with its ::): an attribute edit
 * request.  0, or -1 when @spec is invalid (the caller says so, as a
 * usage error), or an exit code after a message.
 */
int cli_add_attr(struct cli *c, const char *spec, const char *path);

/*
 * The label @name (UTF-8, "" to remove it): a label edit request, at most
 * one a run.  0, or -1 when @name is invalid or a label is given twice
 * (*twice set; the caller says so, as a usage error), or an exit code
 * after a message.
 */
int cli_add_label(struct cli *c, const char *name, int *twice);

/* What a label may hold, for the message of an invalid one. */
#define CLI_LABEL_HINT "at most 11 characters of code page 437, none " \
	"of * ? . , ; : / \\ | + = < > [ ] \" and no control character or " \
	"leading space, as mkfs.fat takes them"

/* What an attribute SPEC holds, for the message of an invalid one. */
#define CLI_ATTR_SPEC_HINT "give + (set) or - (clear) and the letters r " \
	"(read-only), h (hidden), s (system), a (archive), as mattrib takes " \
	"them: +rhs-a"

/* The message of the invalid attribute SPEC @spec (no "try" line). */
void cli_attr_spec_error(const char *spec);

/*
 * A move of volume path @from to @to (each with its ::), with --replace
 * if given: the root is a usage error.  0 or an exit code.
 */
int cli_add_mv(struct cli *c, const char *from, const char *to);

/*
 * 1 if volume path @path ends in a slash: on the command line it names a
 * directory, never a file to preallocate or trim.
 */
int cli_ends_in_slash(const char *path);

/* manifest.c */

/*
 * --manifest @name (malloc'd; kept in @c even on failure) once more:
 * standard input (-) at most once.  0 or an exit code.
 */
int cli_add_manifest(struct cli *c, char *name);

/* Read manifest @m and add its lines' requests to @c; 0 or an exit code. */
int cli_parse_manifest(struct cli *c, struct cli_manifest *m);

/* mkfs.c */

/*
 * How --mkfs fills the volume it made: plan the requests on @fs (of the
 * image @img), check, commit and print as the options say; 0 or an exit
 * code after a message.  main.c's, handed over so that mkfs.c need not
 * call main.c.
 */
typedef int cli_fill_fn(const struct cli *c, struct fp_img *img,
			struct fp_fs *fs);

/* --mkfs: 0 or an exit code after a message. */
int cli_run_mkfs(const struct cli *c, cli_fill_fn *fill);

/* Free the strings of --mkfs's options. */
void cli_mkfs_args_free(struct cli_mkfs_args *a);

/* help.c */

/* The text of --help, on stdout. */
void cli_print_help(void);

/* The text of --version, on stdout. */
void cli_print_version(void);

#endif
