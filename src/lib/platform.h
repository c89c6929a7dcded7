/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* platform.h - what the library asks of the system beyond POSIX. */
#ifndef FP_PLATFORM_H
#define FP_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "fp_err.h"

/*
 * One file implements this for the system the library is built for:
 * platform_linux.c (Linux's ioctls, sysfs, fallocate, copy_file_range,
 * madvise), or platform_posix.c, the fallback that needs nothing beyond
 * POSIX and says "cannot" or "none" where the system has no way: a port
 * to FreeBSD or macOS is a new platform_*.c and a line in configure.ac.
 * Functions that fail keep errno in *errnum, set only on FP_E_IO, for
 * the image object's message; none prints.
 */

/* The platform file built in: "linux" or "posix" (for tests). */
const char *fp_plat_name(void);

/*
 * Length in bytes of the block device open as @fd into *size.  FP_E_IO
 * with *errnum when the system cannot tell.  POSIX: lseek(SEEK_END).
 */
enum fp_err fp_plat_dev_size(int fd, uint64_t *size, int *errnum);

/*
 * Deallocate [off, off + len) of the regular file @fd, keeping its size,
 * so that it reads as zeros.  FP_E_INVAL, having changed nothing, when
 * the system or its filesystem cannot (the caller writes zeros); FP_E_IO
 * with *errnum on another failure.  POSIX: always FP_E_INVAL.
 */
enum fp_err fp_plat_punch(int fd, uint64_t off, uint64_t len, int *errnum);

/*
 * Copy @len bytes at @src_off of @src_fd to @dst_off of @dst_fd in the
 * kernel (reflinks and server-side copies where the filesystem has them).
 * FP_E_INVAL, having written nothing, when that is not possible here (the
 * caller copies through a buffer); FP_E_CHANGED when @src_fd ends early;
 * FP_E_IO with *errnum otherwise.  POSIX: always FP_E_INVAL.
 */
enum fp_err fp_plat_copy_range(int src_fd, uint64_t src_off, int dst_fd,
			       uint64_t dst_off, uint64_t len, int *errnum);

/*
 * The whole disk of the partition device @dev as fp_img_sysfs_disk() in
 * image.h describes it (Linux: from the sysfs tree at @sysfs).
 * POSIX: FP_E_NOPART (no disk is known, so none is locked).
 */
enum fp_err fp_plat_disk_of(const char *sysfs, dev_t dev, dev_t *disk,
			    char *name, size_t name_len);

/*
 * A read-only descriptor of the block device node of @disk, whose kernel
 * name fp_plat_disk_of() gave as @name; -1 if none.  POSIX: -1.
 */
int fp_plat_open_disk(dev_t disk, const char *name);

/*
 * 1 if the file @img (as stat() gives it) backs a loop device, with that
 * device's name in @name, as fp_img_loop_find() in image.h describes it
 * (Linux: the loop devices of the sysfs tree at @sysfs); 0 if not or
 * unknown.  POSIX: 0, the system has no loop devices to ask.
 */
int fp_plat_loop_find(const char *sysfs, const struct stat *img, char *name,
		      size_t name_len);

/*
 * A hint that [p, p + len), aligned to 2 MiB, is best backed by huge
 * pages (fewer TLB misses over large bitmaps and FAT caches).  POSIX:
 * nothing.
 */
void fp_plat_advise_huge(void *p, size_t len);

#endif
