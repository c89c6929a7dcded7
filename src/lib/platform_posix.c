/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * platform_posix.c - platform.h with POSIX only: the fallback of a system
 * that has no platform file of its own, built on Linux too by
 * ./configure --with-platform=posix so that it is compiled and tested.
 */
#include <errno.h>
#include <unistd.h>

#include "platform.h"

const char *fp_plat_name(void)
{
	return "posix";
}

/*
 * A block device's end is where lseek() puts SEEK_END on the systems
 * that tell it (FreeBSD, Linux); one that says 0 is refused rather than
 * taken for an empty device.  The offset is put back for tidiness: the
 * image layer reads and writes with pread() and pwrite().
 */
enum fp_err fp_plat_dev_size(int fd, uint64_t *size, int *errnum)
{
	off_t end = lseek(fd, 0, SEEK_END);

	if (end <= 0 || lseek(fd, 0, SEEK_SET) < 0) {
		*errnum = end == 0 ? ENOTSUP : errno;
		return FP_E_IO;
	}
	*size = (uint64_t)end;
	return FP_OK;
}

enum fp_err fp_plat_punch(int fd, uint64_t off, uint64_t len, int *errnum)
{
	(void)fd;
	(void)off;
	(void)len;
	(void)errnum;
	return FP_E_INVAL;
}

enum fp_err fp_plat_copy_range(int src_fd, uint64_t src_off, int dst_fd,
			       uint64_t dst_off, uint64_t len, int *errnum)
{
	(void)src_fd;
	(void)src_off;
	(void)dst_fd;
	(void)dst_off;
	(void)len;
	(void)errnum;
	return FP_E_INVAL;
}

enum fp_err fp_plat_disk_of(const char *sysfs, dev_t dev, dev_t *disk,
			    char *name, size_t name_len)
{
	(void)sysfs;
	(void)dev;
	(void)disk;
	(void)name;
	(void)name_len;
	return FP_E_NOPART;
}

int fp_plat_open_disk(dev_t disk, const char *name)
{
	(void)disk;
	(void)name;
	return -1;
}

int fp_plat_loop_find(const char *sysfs, const struct stat *img, char *name,
		      size_t name_len)
{
	(void)sysfs;
	(void)img;
	(void)name;
	(void)name_len;
	return 0;
}

void fp_plat_advise_huge(void *p, size_t len)
{
	(void)p;
	(void)len;
}
