/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* platform_linux.c - platform.h on Linux: ioctls, sysfs, fallocate. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include <linux/loop.h>

#include "platform.h"

#define PLAT_COPY_MAX (1u << 30)	/* largest single copy_file_range */

const char *fp_plat_name(void)
{
	return "linux";
}

enum fp_err fp_plat_dev_size(int fd, uint64_t *size, int *errnum)
{
	uint64_t n;

	if (ioctl(fd, BLKGETSIZE64, &n) < 0) {
		*errnum = errno;
		return FP_E_IO;
	}
	*size = n;
	return FP_OK;
}

enum fp_err fp_plat_punch(int fd, uint64_t off, uint64_t len, int *errnum)
{
	int mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
	int r;

	do
		r = fallocate(fd, mode, (off_t)off, (off_t)len);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return FP_OK;
	if (errno != EOPNOTSUPP && errno != ENOSYS && errno != EINVAL) {
		*errnum = errno;
		return FP_E_IO;
	}
	return FP_E_INVAL;
}

/* Errors of copy_file_range() that mean "not here": copy otherwise. */
static int copy_refused(int e)
{
	return e == EXDEV || e == EINVAL || e == ENOSYS || e == EOPNOTSUPP ||
	       e == EBADF || e == ETXTBSY;
}

enum fp_err fp_plat_copy_range(int src_fd, uint64_t src_off, int dst_fd,
			       uint64_t dst_off, uint64_t len, int *errnum)
{
	loff_t in = (loff_t)src_off, out = (loff_t)dst_off;
	uint64_t done = 0;
	ssize_t n;

	while (done < len) {
		n = copy_file_range(src_fd, &in, dst_fd, &out,
				    len - done < PLAT_COPY_MAX ?
				    (size_t)(len - done) : PLAT_COPY_MAX, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && done == 0 && copy_refused(errno))
			return FP_E_INVAL;
		if (n < 0) {
			*errnum = errno;
			return FP_E_IO;
		}
		if (n == 0)
			return FP_E_CHANGED;
		done += (uint64_t)n;
	}
	return FP_OK;
}

void fp_plat_advise_huge(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	(void)madvise(p, len, MADV_HUGEPAGE);	/* a hint */
#else
	(void)p;
	(void)len;
#endif
}

/* --- sysfs: a partition's whole disk, the loop device of a file --- */

/* Read the first line of a small file into @buf; 0 on success. */
static int read_line(const char *file, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* snprintf() into @buf of PATH_MAX bytes; -1 when the path is too long. */
static int path_of(char *buf, const char *fmt, const char *dir,
		   const char *file)
{
	int n = snprintf(buf, PATH_MAX, fmt, dir, file);

	return n < 0 || n >= PATH_MAX ? -1 : 0;
}

enum fp_err fp_plat_disk_of(const char *sysfs, dev_t dev, dev_t *disk,
			    char *name, size_t name_len)
{
	char dir[PATH_MAX], file[PATH_MAX], real[PATH_MAX], line[64], end;
	const char *base;
	unsigned maj, min;
	int n;

	n = snprintf(dir, sizeof(dir), "%s/dev/block/%u:%u", sysfs,
		     major(dev), minor(dev));
	if (n < 0 || (size_t)n >= sizeof(dir))
		return FP_E_NOPART;
	if (path_of(file, "%s/%s", dir, "partition") ||
	    access(file, F_OK) < 0)
		return FP_E_NOPART;
	/* open() and realpath() resolve ".." after the symlink's target */
	if (path_of(file, "%s/%s", dir, "../dev") ||
	    read_line(file, line, sizeof(line)) ||
	    sscanf(line, "%u:%u%c", &maj, &min, &end) != 2)
		return FP_E_IO;
	if (path_of(file, "%s/%s", dir, "..") || !realpath(file, real))
		return FP_E_IO;
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (!*base || strlen(base) >= name_len)
		return FP_E_IO;
	strcpy(name, base);
	*disk = makedev(maj, min);
	return FP_OK;
}

/* Open the block device node of @disk: /dev/block/MAJ:MIN or /dev/@name. */
int fp_plat_open_disk(dev_t disk, const char *name)
{
	char path[PATH_MAX];
	struct stat st;
	int i, fd;

	for (i = 0; i < 2; i++) {
		if (i == 0)
			snprintf(path, sizeof(path), "/dev/block/%u:%u",
				 major(disk), minor(disk));
		else if (path_of(path, "%s%s", "/dev/", name))
			break;
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) &&
		    st.st_rdev == disk)
			return fd;
		close(fd);
	}
	return -1;
}

/*
 * Whether a loop's backing file of device @dev and inode @ino, or the
 * block device @rdev, is the image @img: the same file, or for a block
 * device the same device, whichever node names it.
 */
static int is_image(const struct stat *img, dev_t dev, ino_t ino,
		    dev_t rdev)
{
	if (S_ISBLK(img->st_mode))
		return rdev == img->st_rdev;
	return dev == img->st_dev && ino == img->st_ino;
}

/*
 * Whether the loop device @dir (a directory of @sysfs/block) holds the
 * image @img as its node says, LOOP_GET_STATUS64 on the node of the
 * device number in @dir/dev: 1 or 0 when it could be asked, -1 when not
 * (the node cannot be opened, as by users other than root, or the loop
 * is unbound).
 */
static int loop_node_holds(const char *dir, const char *name,
			   const struct stat *img)
{
	char file[PATH_MAX], line[64], end;
	struct loop_info64 info = { 0 };	/* valgrind does not know the ioctl */
	unsigned maj, min;
	int fd, ok;

	if (path_of(file, "%s/%s", dir, "dev") ||
	    read_line(file, line, sizeof(line)) ||
	    sscanf(line, "%u:%u%c", &maj, &min, &end) != 2)
		return -1;
	fd = fp_plat_open_disk(makedev(maj, min), name);
	if (fd < 0)
		return -1;
	ok = ioctl(fd, LOOP_GET_STATUS64, &info) == 0;
	close(fd);
	if (!ok)
		return -1;
	return is_image(img, (dev_t)info.lo_device, (ino_t)info.lo_inode,
			(dev_t)info.lo_rdevice);
}

/* 1 if @path leads to the image @img. */
static int leads_to(const char *path, const struct stat *img)
{
	struct stat st;

	if (stat(path, &st) < 0 || S_ISBLK(st.st_mode) != S_ISBLK(img->st_mode))
		return 0;
	return is_image(img, st.st_dev, st.st_ino, st.st_rdev);
}

/*
 * Whether the loop device @dir holds the image @img as sysfs names its
 * file: the path in @dir/loop/backing_file (a file name may hold any
 * byte but '\0', so only the last newline is dropped), or, when it ends
 * in " (deleted)", which the kernel adds once the name is gone, the path
 * without it (another link of that name may lead to the file again).  A
 * path cannot tell a deleted name from one that ends so: either counts.
 */
static int loop_sysfs_holds(const char *dir, const struct stat *img)
{
	static const char deleted[] = " (deleted)";
	const size_t dl = sizeof(deleted) - 1;
	char file[PATH_MAX], back[PATH_MAX + sizeof(deleted) + 1];
	ssize_t n;
	int fd;

	if (path_of(file, "%s/%s", dir, "loop/backing_file"))
		return 0;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, back, sizeof(back) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	back[n] = '\0';
	if (back[n - 1] == '\n')
		back[--n] = '\0';
	if (leads_to(back, img))
		return 1;
	if ((size_t)n <= dl || strcmp(back + n - dl, deleted))
		return 0;
	back[n - dl] = '\0';
	return leads_to(back, img);
}

/*
 * Whether the loop device @dir is bound to a file: sysfs shows its loop/
 * directory only then.  An unbound one holds nothing, and its node is not
 * opened (nor asked by an ioctl that valgrind does not know).
 */
static int loop_bound(const char *dir)
{
	char file[PATH_MAX];

	return !path_of(file, "%s/%s", dir, "loop") &&
	       access(file, F_OK) == 0;
}

/*
 * A loop device holds a file, not a name: a hard link, a bind mount or a
 * name deleted since leads to the same device and inode (a block device:
 * the same device number).  The device node's answer is the file the
 * loop holds; sysfs gives only a path, which another mount namespace, a
 * rename in a directory out of reach, or a deletion can make lead
 * elsewhere or nowhere.  The offset and size limit do not matter: any
 * part of the file may be mounted.
 */
int fp_plat_loop_find(const char *sysfs, const struct stat *img, char *name,
		      size_t name_len)
{
	char blk[PATH_MAX], dir[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int found = 0;

	if (path_of(blk, "%s/%s", sysfs, "block") || !(d = opendir(blk)))
		return 0;
	while (!found && (de = readdir(d))) {
		if (strncmp(de->d_name, "loop", 4) ||
		    path_of(dir, "%s/%s", blk, de->d_name) ||
		    !loop_bound(dir))
			continue;
		found = loop_node_holds(dir, de->d_name, img);
		if (found < 0)
			found = loop_sysfs_holds(dir, img);
		if (found)
			snprintf(name, name_len, "%s", de->d_name);
	}
	closedir(d);
	return found;
}
