/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* image.c - image I/O: file, block device and memory backends behind ops. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "image.h"
#include "util.h"
#include "platform.h"

#define IMG_ZERO_BLOCK (1024u * 1024u)	/* zero-fill write size */
#define IMG_IO_MAX (1u << 30)		/* largest single pread/pwrite */
#define IMG_HOLE_MIN (64u * 1024u)	/* reads from this size look for
					 * holes first */
#define IMG_HOLES 4			/* holes remembered: one a FAT copy */

/*
 * A backend.  Offsets are absolute (the window base already added) and
 * have been checked against the window by the caller.  Failures store
 * errno in img->err.  close() returns 0 or an errno value.
 */
struct fp_img_ops {
	enum fp_err (*read)(struct fp_img *img, uint64_t off, void *buf,
			    size_t len);
	enum fp_err (*write)(struct fp_img *img, uint64_t off,
			     const void *buf, size_t len);
	enum fp_err (*zero)(struct fp_img *img, uint64_t off, uint64_t len);
	enum fp_err (*punch)(struct fp_img *img, uint64_t off, uint64_t len);
	enum fp_err (*sync)(struct fp_img *img);
	int (*close)(struct fp_img *img);
};

struct fp_img {
	const struct fp_img_ops *ops;
	int fd;			/* file backend, else -1 */
	int disk_fd;		/* a partition's locked whole disk, else -1 */
	char disk_name[NAME_MAX + 1];	/* its kernel name, else "" */
	uint8_t *mem;		/* memory backend (owned), else NULL */
	uint64_t mem_len;	/* bytes of mem; the rest reads as zeros */
	struct sparse_ext *ext;	/* sparse backend: the writes (owned) */
	size_t ext_count, ext_cap;
	int regular;		/* regular file or memory */
	uint64_t dev_len;	/* length of the whole file, device or buffer */
	uint64_t base;		/* window start */
	uint64_t len;		/* window length */
	int err;		/* errno of the last failure */
	unsigned long writes;	/* successful write calls */
	unsigned long reads;	/* read calls */
	unsigned long hole_reads;	/* reads answered from a hole */
	/* file backend: holes and a data extent known (absolute [off,
	 * end); empty when equal), or SEEK_DATA unusable */
	struct { uint64_t off, end; } hole[IMG_HOLES];
	unsigned hole_next;	/* the slot to fill next */
	uint64_t data_off, data_end;
	int no_seek;
	enum fp_img_fault fault;	/* the fault to inject, if any */
	unsigned long fail_at;	/* 0, or the number of the call to fail */
	int fail_errno;
};

/* A write kept by the sparse memory backend. */
struct sparse_ext {
	uint64_t off;
	uint64_t len;
	uint8_t *data;
};

/* --- file and block device backend --- */

/* The size of the open file, -1 if fstat() fails. */
static off_t end_of_file(struct fp_img *img)
{
	struct stat st;

	return fstat(img->fd, &st) < 0 ? -1 : st.st_size;
}

/*
 * 1 if the filesystem says that [off, off + len) of a regular file is a
 * hole (SEEK_DATA), which reads as zeros; 0 if it holds data or nobody
 * can tell.  A few holes and one data extent are remembered until the
 * next write, so that a FAT read in windows, copy after copy, asks about
 * once an extent.
 */
static int in_hole(struct fp_img *img, uint64_t off, uint64_t len)
{
	uint64_t end = off + len;
	unsigned k;
	off_t d, h;

	if (img->no_seek || !img->regular || len < IMG_HOLE_MIN)
		return 0;
	for (k = 0; k < IMG_HOLES; k++)
		if (off >= img->hole[k].off && end <= img->hole[k].end)
			return 1;
	if (off >= img->data_off && off < img->data_end)
		return 0;
	d = lseek(img->fd, (off_t)off, SEEK_DATA);
	if (d < 0 && errno == ENXIO)	/* a hole up to the end of the file */
		d = end_of_file(img);
	if (d < 0) {
		img->no_seek = 1;
		return 0;
	}
	if ((uint64_t)d > off) {
		k = img->hole_next++ % IMG_HOLES;
		img->hole[k].off = off;
		img->hole[k].end = (uint64_t)d;
		return end <= (uint64_t)d;
	}
	h = lseek(img->fd, (off_t)off, SEEK_HOLE);
	if (h < 0 || (uint64_t)h <= off) {
		img->no_seek = 1;
		return 0;
	}
	img->data_off = off;
	img->data_end = (uint64_t)h;
	return 0;
}

/* Forget the extents in_hole() knows: the file is being written. */
static void forget_extents(struct fp_img *img)
{
	memset(img->hole, 0, sizeof(img->hole));
	img->data_off = img->data_end = 0;
}

/* Read [off, off + len) of the file whole. */
static enum fp_err read_all(struct fp_img *img, uint64_t off, uint8_t *p,
			    uint64_t len)
{
	while (len > 0) {
		size_t chunk = len < IMG_IO_MAX ? (size_t)len : IMG_IO_MAX;
		ssize_t n = pread(img->fd, p, chunk, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			img->err = errno;
			return FP_E_IO;
		}
		if (n == 0)	/* the file shrank after it was opened */
			return FP_E_TRUNC;
		p += n;
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	return FP_OK;
}

/*
 * The first hole in [off, end) of a regular file, clipped to it, in
 * *@ho and *@hl; *@hl 0 when there is none or nobody can tell (SEEK_HOLE
 * unusable: then never asked again).
 */
static void next_hole(struct fp_img *img, uint64_t off, uint64_t end,
		      uint64_t *ho, uint64_t *hl)
{
	off_t h, d;

	*hl = 0;
	if (img->no_seek)
		return;
	if (off >= img->data_off && off < img->data_end)	/* in_hole()'s */
		h = (off_t)img->data_end;
	else
		h = lseek(img->fd, (off_t)off, SEEK_HOLE);
	if (h < 0 || (uint64_t)h < off) {
		img->no_seek = 1;
		return;
	}
	if ((uint64_t)h >= end)
		return;
	d = lseek(img->fd, h, SEEK_DATA);
	if (d < 0 && errno == ENXIO)	/* a hole up to the end of the file */
		d = end_of_file(img);
	if (d < (off_t)h) {
		img->no_seek = 1;
		return;
	}
	*ho = (uint64_t)h;
	*hl = ((uint64_t)d < end ? (uint64_t)d : end) - (uint64_t)h;
}

/*
 * A read that lies in a hole is answered with zeros without a read:
 * reading a hole makes the kernel clear and copy page-cache pages, the
 * most of a run's cost on a freshly made sparse image.  A large read
 * over data and holes (a FAT window whose free part was never written)
 * reads the data and clears the holes of IMG_HOLE_MIN or more itself;
 * only a read wholly in a hole counts in hole_reads.
 */
static enum fp_err file_read(struct fp_img *img, uint64_t off, void *buf,
			     size_t len)
{
	uint8_t *p = buf;
	uint64_t end = off + len, from = off, at = off, ho, hl;
	enum fp_err err;

	if (in_hole(img, off, len)) {
		memset(buf, 0, len);
		img->hole_reads++;
		return FP_OK;
	}
	while (img->regular && end - at >= IMG_HOLE_MIN) {
		next_hole(img, at, end, &ho, &hl);
		if (hl == 0)
			break;
		if (hl >= IMG_HOLE_MIN) {
			err = read_all(img, from, p + (from - off), ho - from);
			if (err)
				return err;
			memset(p + (ho - off), 0, (size_t)hl);
			from = ho + hl;
		}
		at = ho + hl;
	}
	return read_all(img, from, p + (from - off), end - from);
}

static enum fp_err file_write(struct fp_img *img, uint64_t off,
			      const void *buf, size_t len)
{
	const uint8_t *p = buf;

	forget_extents(img);
	while (len > 0) {
		size_t chunk = len < IMG_IO_MAX ? len : IMG_IO_MAX;
		ssize_t n = pwrite(img->fd, p, chunk, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			img->err = n < 0 ? errno : EIO;
			return FP_E_IO;
		}
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return FP_OK;
}

/*
 * Write zeros, so that the range is data as SEEK_DATA and FIEMAP see it
 * (bmaptool, genimage, fwup copy only that): a range that is a hole now
 * is written too.  FALLOC_FL_ZERO_RANGE is not used: it leaves unwritten
 * extents, which XFS and ext4 report as holes to SEEK_DATA when no page
 * of them is cached.  Block devices get the same writes.
 */
static enum fp_err file_zero(struct fp_img *img, uint64_t off, uint64_t len)
{
	size_t blk = len < IMG_ZERO_BLOCK ? (size_t)len : IMG_ZERO_BLOCK;
	uint8_t *zeros = calloc(1, blk);
	enum fp_err err = FP_OK;

	if (!zeros)
		return FP_E_NOMEM;
	while (len > 0) {
		size_t n = len < blk ? (size_t)len : blk;

		err = file_write(img, off, zeros, n);
		if (err)
			goto out;
		off += n;
		len -= n;
	}
out:
	free(zeros);
	return err;
}

/* Punch a hole where the host filesystem can, else write zeros. */
static enum fp_err file_punch(struct fp_img *img, uint64_t off, uint64_t len)
{
	enum fp_err err;

	forget_extents(img);
	if (!img->regular)
		return file_zero(img, off, len);
	err = fp_plat_punch(img->fd, off, len, &img->err);
	if (err != FP_E_INVAL)
		return err;
	return file_zero(img, off, len);
}

static enum fp_err file_sync(struct fp_img *img)
{
	if (fsync(img->fd) < 0) {
		img->err = errno;
		return FP_E_IO;
	}
	return FP_OK;
}

static int file_close(struct fp_img *img)
{
	if (img->disk_fd >= 0)
		close(img->disk_fd);
	if (img->fd >= 0 && close(img->fd) < 0)
		return errno;
	return 0;
}

static const struct fp_img_ops file_ops = {
	.read = file_read,
	.write = file_write,
	.zero = file_zero,
	.punch = file_punch,
	.sync = file_sync,
	.close = file_close,
};

/* --- memory backend --- */

/* Bytes of [off, off + len) that mem holds. */
static size_t mem_held(const struct fp_img *img, uint64_t off, uint64_t len)
{
	if (off >= img->mem_len)
		return 0;
	return img->mem_len - off < len ? (size_t)(img->mem_len - off) :
	       (size_t)len;
}

static enum fp_err mem_read(struct fp_img *img, uint64_t off, void *buf,
			    size_t len)
{
	size_t n = mem_held(img, off, len);

	if (n > 0)
		memcpy(buf, img->mem + off, n);
	memset((uint8_t *)buf + n, 0, len - n);
	return FP_OK;
}

/* Make mem hold the image up to @end (<= dev_len), at least doubling. */
static enum fp_err mem_hold(struct fp_img *img, uint64_t end)
{
	uint64_t len = img->mem_len * 2;
	uint8_t *p;

	if (end <= img->mem_len)
		return FP_OK;
	if (len < end)
		len = end;
	if (len > img->dev_len)
		len = img->dev_len;
	p = realloc(img->mem, (size_t)len);
	if (!p) {
		img->err = ENOMEM;
		return FP_E_NOMEM;
	}
	memset(p + img->mem_len, 0, (size_t)(len - img->mem_len));
	img->mem = p;
	img->mem_len = len;
	return FP_OK;
}

static enum fp_err mem_write(struct fp_img *img, uint64_t off,
			     const void *buf, size_t len)
{
	enum fp_err err = mem_hold(img, off + len);

	if (err)
		return err;
	memcpy(img->mem + off, buf, len);
	return FP_OK;
}

static enum fp_err mem_zero(struct fp_img *img, uint64_t off, uint64_t len)
{
	size_t n = mem_held(img, off, len);

	if (n > 0)
		memset(img->mem + off, 0, n);
	return FP_OK;
}

static enum fp_err mem_sync(struct fp_img *img)
{
	(void)img;
	return FP_OK;
}

static int mem_close(struct fp_img *img)
{
	free(img->mem);
	return 0;
}

static const struct fp_img_ops mem_ops = {
	.read = mem_read,
	.write = mem_write,
	.zero = mem_zero,
	.punch = mem_zero,
	.sync = mem_sync,
	.close = mem_close,
};

/* --- sparse memory backend: a few writes over zeros --- */

/* The overlap of [off, off + len) with @e: *from in @e, *to in the range. */
static uint64_t ext_overlap(const struct sparse_ext *e, uint64_t off,
			    uint64_t len, uint64_t *from, uint64_t *to)
{
	uint64_t a = off > e->off ? off : e->off;
	uint64_t b = off + len < e->off + e->len ? off + len : e->off + e->len;

	if (a >= b)
		return 0;
	*from = a - e->off;
	*to = a - off;
	return b - a;
}

/* Zeros, then every write over them in the order they were made. */
static enum fp_err sparse_read(struct fp_img *img, uint64_t off, void *buf,
			       size_t len)
{
	uint64_t from, to, n;
	size_t i;

	memset(buf, 0, len);
	for (i = 0; i < img->ext_count; i++) {
		n = ext_overlap(&img->ext[i], off, len, &from, &to);
		if (n)
			memcpy((uint8_t *)buf + to, img->ext[i].data + from, n);
	}
	return FP_OK;
}

/* Zeros over what the writes hold of the range. */
static enum fp_err sparse_zero(struct fp_img *img, uint64_t off, uint64_t len)
{
	uint64_t from, to, n;
	size_t i;

	for (i = 0; i < img->ext_count; i++) {
		n = ext_overlap(&img->ext[i], off, len, &from, &to);
		if (n)
			memset(img->ext[i].data + from, 0, n);
	}
	return FP_OK;
}

static enum fp_err sparse_write(struct fp_img *img, uint64_t off,
				const void *buf, size_t len)
{
	struct sparse_ext *e;

	if (fp_grow(&img->ext, &img->ext_cap, img->ext_count,
		    sizeof(*img->ext)))
		goto nomem;
	e = &img->ext[img->ext_count];
	e->data = malloc(len);
	if (!e->data)
		goto nomem;
	memcpy(e->data, buf, len);
	e->off = off;
	e->len = len;
	img->ext_count++;
	return FP_OK;
nomem:
	img->err = ENOMEM;
	return FP_E_NOMEM;
}

static int sparse_close(struct fp_img *img)
{
	size_t i;

	for (i = 0; i < img->ext_count; i++)
		free(img->ext[i].data);
	free(img->ext);
	return 0;
}

static const struct fp_img_ops sparse_ops = {
	.read = sparse_read,
	.write = sparse_write,
	.zero = sparse_zero,
	.punch = sparse_zero,
	.sync = mem_sync,
	.close = sparse_close,
};

/* --- common layer: windows, bounds, counters, fault injection --- */

static struct fp_img *img_new(const struct fp_img_ops *ops)
{
	struct fp_img *img = calloc(1, sizeof(*img));

	if (!img)
		return NULL;
	img->ops = ops;
	img->fd = -1;
	img->disk_fd = -1;
	return img;
}

/* The errno fp_img_open() gives a file of mode @mode that is no image. */
static int not_image(mode_t mode)
{
	return S_ISDIR(mode) ? EISDIR : ENOTBLK;
}

/* Length of the open file or block device; it must fit an off_t. */
static enum fp_err file_size(struct fp_img *img)
{
	const uint64_t off_max = sizeof(off_t) >= 8 ? INT64_MAX : INT32_MAX;
	struct stat st;
	uint64_t size;

	if (fstat(img->fd, &st) < 0) {
		img->err = errno;
		return FP_E_IO;
	}
	if (S_ISREG(st.st_mode)) {
		img->regular = 1;
		size = (uint64_t)st.st_size;
	} else if (S_ISBLK(st.st_mode)) {
		if (fp_plat_dev_size(img->fd, &size, &img->err))
			return FP_E_IO;
	} else {
		img->err = not_image(st.st_mode);
		return FP_E_IO;
	}
	if (size > off_max) {
		img->err = EFBIG;
		return FP_E_IO;
	}
	img->dev_len = size;
	img->len = size;
	return FP_OK;
}

/*
 * Only a regular file or a block device is opened: stat() first, so that
 * a FIFO, which blocks an open for reading until a writer comes, a socket
 * and a character device (/dev/zero reads forever; opening a tape rewinds
 * it) are refused without being opened.  The open is O_NONBLOCK, and
 * file_size() checks the type of what was opened, so that a FIFO put in
 * the path's place in between is refused too, not waited on; O_NONBLOCK
 * is then cleared.
 */
enum fp_err fp_img_open(const char *path, unsigned flags,
			struct fp_img **out, int *errnum)
{
	int oflags = (flags & FP_IMG_WRITE) ? O_RDWR : O_RDONLY;
	struct fp_img *img = NULL;
	struct stat st;
	enum fp_err err;

	if (errnum)
		*errnum = 0;
	if (flags & ~(unsigned)(FP_IMG_WRITE | FP_IMG_EXCL))
		return FP_E_INVAL;
	img = img_new(&file_ops);
	if (!img)
		return FP_E_NOMEM;
	err = FP_E_IO;
	if (stat(path, &st) < 0) {
		img->err = errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		img->err = not_image(st.st_mode);
		goto out;
	}
	if ((flags & FP_IMG_EXCL) && S_ISBLK(st.st_mode))
		oflags |= O_EXCL;
	img->fd = open(path, oflags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (img->fd < 0) {
		img->err = errno;
		goto out;
	}
	err = file_size(img);
	if (err)
		goto out;
	oflags = fcntl(img->fd, F_GETFL);
	if (oflags < 0 || fcntl(img->fd, F_SETFL, oflags & ~O_NONBLOCK) < 0) {
		img->err = errno;
		err = FP_E_IO;
		goto out;
	}
	*out = img;
	img = NULL;
out:
	if (img) {
		if (errnum)
			*errnum = img->err;
		fp_img_close(img);
	}
	return err;
}

static enum fp_err flock_fd(struct fp_img *img, int fd, int exclusive,
			    int wait)
{
	int op = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB);

	while (flock(fd, op) < 0) {
		if (errno == EINTR)
			continue;
		img->err = errno;
		return errno == EWOULDBLOCK ? FP_E_LOCKED : FP_E_IO;
	}
	return FP_OK;
}

/*
 * A partition's whole disk, locked before the partition, as systemd
 * documents: a parent before its child, so that two runs on partitions
 * of one disk cannot deadlock with --wait.
 */
static enum fp_err lock_disk(struct fp_img *img, int exclusive, int wait)
{
	struct stat st;
	dev_t disk;
	enum fp_err err;

	if (img->regular || img->disk_fd >= 0 || fstat(img->fd, &st) < 0 ||
	    !S_ISBLK(st.st_mode))
		return FP_OK;
	if (fp_plat_disk_of("/sys", st.st_rdev, &disk, img->disk_name,
			    sizeof(img->disk_name)))
		return FP_OK;
	img->disk_fd = fp_plat_open_disk(disk, img->disk_name);
	if (img->disk_fd < 0) {
		img->disk_name[0] = '\0';
		return FP_OK;
	}
	err = flock_fd(img, img->disk_fd, exclusive, wait);
	if (err) {
		close(img->disk_fd);
		img->disk_fd = -1;
	}
	return err;
}

enum fp_err fp_img_lock(struct fp_img *img, int exclusive, int wait)
{
	enum fp_err err;

	if (img->fd < 0)
		return FP_OK;
	img->disk_name[0] = '\0';
	err = lock_disk(img, exclusive, wait);
	if (err)
		return err;
	err = flock_fd(img, img->fd, exclusive, wait);
	if (err)
		img->disk_name[0] = '\0';
	return err;
}

const char *fp_img_lock_disk(const struct fp_img *img)
{
	return img->disk_name[0] ? img->disk_name : NULL;
}

enum fp_err fp_img_sysfs_disk(const char *sysfs, dev_t dev, dev_t *disk,
			      char *name, size_t name_len)
{
	return fp_plat_disk_of(sysfs, dev, disk, name, name_len);
}

int fp_img_loop_find(const char *sysfs, const struct stat *img, char *name,
		     size_t name_len)
{
	return fp_plat_loop_find(sysfs, img, name, name_len);
}

int fp_img_loop_attached(const struct fp_img *img, char *name,
			 size_t name_len)
{
	struct stat st;

	if (img->fd < 0 || fstat(img->fd, &st) < 0)
		return 0;
	return fp_img_loop_find("/sys", &st, name, name_len);
}

enum fp_err fp_img_mem(const void *data, uint64_t len, struct fp_img **out)
{
	return fp_img_mem_pad(data, len, len, out);
}

/*
 * Only the @data_len bytes are held; the zeros after them are not, until
 * a write reaches them (mem_hold).  A fuzzer's image is megabytes of
 * zeros after kilobytes of metadata, and allocating and releasing all of
 * it for every input (under ASan, with its shadow) was most of the cost
 * of an input.
 */
enum fp_err fp_img_mem_pad(const void *data, uint64_t data_len, uint64_t len,
			   struct fp_img **out)
{
	struct fp_img *img;

	if ((!data && data_len > 0) || data_len > len)
		return FP_E_INVAL;
	if (len > SIZE_MAX)
		return FP_E_NOMEM;
	img = img_new(&mem_ops);
	if (!img)
		return FP_E_NOMEM;
	img->mem = malloc(data_len ? (size_t)data_len : 1);
	if (!img->mem) {
		free(img);
		return FP_E_NOMEM;
	}
	if (data_len > 0)
		memcpy(img->mem, data, (size_t)data_len);
	img->mem_len = data_len;
	img->regular = 1;
	img->dev_len = len;
	img->len = len;
	*out = img;
	return FP_OK;
}

enum fp_err fp_img_sparse(uint64_t len, struct fp_img **out)
{
	struct fp_img *img = img_new(&sparse_ops);

	if (!img)
		return FP_E_NOMEM;
	img->regular = 1;
	img->dev_len = len;
	img->len = len;
	*out = img;
	return FP_OK;
}

const uint8_t *fp_img_mem_data(const struct fp_img *img)
{
	return img->mem;
}

uint64_t fp_img_mem_len(const struct fp_img *img)
{
	return img->mem_len;
}

enum fp_err fp_img_set_window(struct fp_img *img, uint64_t off, uint64_t len)
{
	if (off > img->dev_len)
		return FP_E_TRUNC;
	if (len == 0)
		len = img->dev_len - off;
	else if (len > img->dev_len - off)
		return FP_E_TRUNC;
	img->base = off;
	img->len = len;
	return FP_OK;
}

uint64_t fp_img_base(const struct fp_img *img)
{
	return img->base;
}

uint64_t fp_img_len(const struct fp_img *img)
{
	return img->len;
}

int fp_img_is_regular(const struct fp_img *img)
{
	return img->regular;
}

static int in_window(const struct fp_img *img, uint64_t off, uint64_t len)
{
	return off <= img->len && len <= img->len - off;
}

enum fp_err fp_img_read(struct fp_img *img, uint64_t off, void *buf,
			size_t len)
{
	if (!in_window(img, off, len))
		return FP_E_TRUNC;
	if (len == 0)
		return FP_OK;
	img->reads++;
	if (img->fault == FP_IMG_FAULT_READ && img->reads == img->fail_at) {
		img->err = img->fail_errno;
		return FP_E_IO;
	}
	return img->ops->read(img, img->base + off, buf, len);
}

/* How write_call() writes when it has no buffer. */
enum zero_how {
	ZERO_WRITE,		/* zeros that are data */
	ZERO_PUNCH,		/* a hole where possible */
};

/* Write @len bytes from @buf, or zeros (@how) when @buf is NULL. */
static enum fp_err backend_write(struct fp_img *img, uint64_t off,
				 const void *buf, uint64_t len,
				 enum zero_how how)
{
	if (len == 0)
		return FP_OK;
	if (!buf && how == ZERO_PUNCH)
		return img->ops->punch(img, img->base + off, len);
	if (!buf)
		return img->ops->zero(img, img->base + off, len);
	return img->ops->write(img, img->base + off, buf, (size_t)len);
}

/*
 * One write call (zeros when @buf is NULL), refused when out of bounds or
 * when a fault is due.  Calls are numbered as fp_img_write_count() counts
 * them: the call that would become successful write number k is call k.
 * Once one has failed by injection the count stops, so every later call
 * fails too; a short write first writes the first half of its bytes,
 * rounded down to 512, as a device that fills up would.
 */
static enum fp_err write_call(struct fp_img *img, uint64_t off,
			      const void *buf, uint64_t len, enum zero_how how)
{
	uint64_t part = len / 2 / 512 * 512;
	enum fp_err err;

	if (!in_window(img, off, len))
		return FP_E_TRUNC;
	if ((img->fault == FP_IMG_FAULT_WRITE ||
	     img->fault == FP_IMG_FAULT_SHORT) &&
	    img->writes + 1 >= img->fail_at) {
		if (img->fault == FP_IMG_FAULT_SHORT) {
			img->fault = FP_IMG_FAULT_WRITE;
			err = backend_write(img, off, buf, part, how);
			if (err)
				return err;
		}
		img->err = img->fail_errno;
		return FP_E_IO;
	}
	err = backend_write(img, off, buf, len, how);
	if (!err)
		img->writes++;
	return err;
}

enum fp_err fp_img_write(struct fp_img *img, uint64_t off, const void *buf,
			 size_t len)
{
	if (!buf && len > 0)
		return FP_E_INVAL;
	return write_call(img, off, buf, len, ZERO_WRITE);
}

enum fp_err fp_img_copy_fd(struct fp_img *img, uint64_t off, int fd,
			   uint64_t src_off, uint64_t len)
{
	enum fp_err err;

	if (!in_window(img, off, len))
		return FP_E_TRUNC;
	if (img->fd < 0 || img->fault == FP_IMG_FAULT_WRITE ||
	    img->fault == FP_IMG_FAULT_SHORT)
		return FP_E_INVAL;
	forget_extents(img);
	err = fp_plat_copy_range(fd, src_off, img->fd, img->base + off, len,
				 &img->err);
	if (!err)
		img->writes++;
	return err;
}

enum fp_err fp_img_zero(struct fp_img *img, uint64_t off, uint64_t len)
{
	return write_call(img, off, NULL, len, ZERO_WRITE);
}

enum fp_err fp_img_punch(struct fp_img *img, uint64_t off, uint64_t len)
{
	return write_call(img, off, NULL, len, ZERO_PUNCH);
}

enum fp_err fp_img_find_hole(struct fp_img *img, uint64_t off, uint64_t len,
			     uint64_t *hole_off, uint64_t *hole_len)
{
	uint64_t a = img->base + off, e = a + len, ho = off, hl = 0;
	off_t h, d;

	if (!in_window(img, off, len))
		return FP_E_TRUNC;
	if (img->fd < 0 || !img->regular || len == 0)
		goto out;
	if (a >= img->data_off && e <= img->data_end)	/* known data */
		goto out;
	h = lseek(img->fd, (off_t)a, SEEK_HOLE);
	if (h < 0 && (errno == ENXIO || errno == EINVAL ||
		      errno == EOPNOTSUPP))
		goto out;
	if (h < 0)
		goto fail;
	if ((uint64_t)h >= e) {
		/* [a, h) is data: remembered with in_hole()'s until a write */
		img->data_off = a;
		img->data_end = (uint64_t)h;
		goto out;
	}
	d = lseek(img->fd, h, SEEK_DATA);
	if (d < 0 && errno == ENXIO)	/* a hole up to the end of the file */
		d = end_of_file(img);
	if (d < 0)
		goto fail;
	ho = (uint64_t)h - img->base;
	hl = ((uint64_t)d < e ? (uint64_t)d : e) - (uint64_t)h;
out:
	*hole_off = ho;
	*hole_len = hl;
	return FP_OK;
fail:
	img->err = errno;
	return FP_E_IO;
}

enum fp_err fp_img_sync(struct fp_img *img)
{
	return img->ops->sync(img);
}

int fp_img_errno(const struct fp_img *img)
{
	return img->err;
}

unsigned long fp_img_write_count(const struct fp_img *img)
{
	return img->writes;
}

unsigned long fp_img_read_count(const struct fp_img *img)
{
	return img->reads;
}

int fp_img_in_hole(struct fp_img *img, uint64_t off, uint64_t len)
{
	return in_window(img, off, len) && img->ops->read == file_read &&
	       in_hole(img, img->base + off, len);
}

unsigned long fp_img_hole_reads(const struct fp_img *img)
{
	return img->hole_reads;
}

void fp_img_fault(struct fp_img *img, enum fp_img_fault kind,
		  unsigned long k, int errnum)
{
	img->fault = k ? kind : FP_IMG_FAULT_NONE;
	img->fail_at = k;
	img->fail_errno = errnum;
}

void fp_img_fail_write(struct fp_img *img, unsigned long k, int errnum)
{
	fp_img_fault(img, FP_IMG_FAULT_WRITE, k, errnum);
}

/* The errno of a failing close() is left in errno for the caller. */
enum fp_err fp_img_close(struct fp_img *img)
{
	int e;

	if (!img)
		return FP_OK;
	e = img->ops->close(img);
	free(img);
	if (e) {
		errno = e;
		return FP_E_IO;
	}
	return FP_OK;
}
