/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* image.h - image I/O: a file or block device, or memory (for tests). */
#ifndef FP_IMAGE_H
#define FP_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "fp_err.h"

/*
 * An image is a byte range [base, base + len) of a file, a block device or
 * a memory buffer.  All offsets given to the functions below are relative
 * to base; an access past len fails with FP_E_TRUNC and touches nothing.
 * The image object owns its file descriptor or buffer.
 */
struct fp_img;

enum fp_img_flags {
	FP_IMG_WRITE = 1 << 0,	/* open read-write (default read-only) */
	FP_IMG_EXCL = 1 << 1,	/* block device: O_EXCL, so that Linux
				 * refuses one that is mounted (EBUSY) */
};

/* Open @path.  *out is set only on success; errno is kept in *errnum. */
enum fp_err fp_img_open(const char *path, unsigned flags,
			struct fp_img **out, int *errnum);

/* A writable memory image holding a copy of @len bytes at @data. */
enum fp_err fp_img_mem(const void *data, uint64_t len, struct fp_img **out);

/*
 * A writable memory image of @len bytes: a copy of the @data_len
 * (<= @len) bytes at @data, then zeros; FP_E_INVAL when @data_len > @len.
 * The zeros take no memory until a write reaches them (the fuzzers hand
 * over images with their trailing zeros cut off).
 */
enum fp_err fp_img_mem_pad(const void *data, uint64_t data_len, uint64_t len,
			   struct fp_img **out);

/*
 * A writable memory image of @len bytes of zeros that keeps each write
 * apart, however far into the image: for a few writes into a large image
 * (fp_mkfs_write() of a volume whose copies are planned, not made).
 * Reads cost a pass over the writes kept.
 */
enum fp_err fp_img_sparse(uint64_t len, struct fp_img **out);

/*
 * The memory backend's bytes (NULL for a file image): the first
 * fp_img_mem_len() bytes of the image; the rest are zeros.
 */
const uint8_t *fp_img_mem_data(const struct fp_img *img);

/* Bytes that fp_img_mem_data() holds: all of an fp_img_mem() image. */
uint64_t fp_img_mem_len(const struct fp_img *img);

/*
 * Restrict the image to [off, off + len) of the underlying file; len 0
 * means "to the end".  Fails with FP_E_TRUNC when the range does not fit.
 */
enum fp_err fp_img_set_window(struct fp_img *img, uint64_t off, uint64_t len);

/* Where the window starts in the underlying file or device. */
uint64_t fp_img_base(const struct fp_img *img);

/* Length in bytes of the (windowed) image. */
uint64_t fp_img_len(const struct fp_img *img);

/* 1 for a regular file or memory image, 0 for a block device. */
int fp_img_is_regular(const struct fp_img *img);

/* Full reads and writes (retrying short transfers and EINTR). */
enum fp_err fp_img_read(struct fp_img *img, uint64_t off, void *buf,
			size_t len);
enum fp_err fp_img_write(struct fp_img *img, uint64_t off, const void *buf,
			 size_t len);

/*
 * Copy @len bytes at @src_off of the open file @fd to @off of the image
 * with copy_file_range(2): counted as one write call.  FP_E_INVAL, having
 * written nothing, when that is not possible here (a memory image, an
 * injected write fault pending, or a kernel or filesystem that refuses):
 * the caller then copies through a buffer.  FP_E_CHANGED when @fd ends
 * early; FP_E_IO with errno kept otherwise.
 */
enum fp_err fp_img_copy_fd(struct fp_img *img, uint64_t off, int fd,
			   uint64_t src_off, uint64_t len);

/*
 * Write zeros to [off, off + len) in large blocks, holes included, so that
 * the range is data to SEEK_DATA and FIEMAP: a flasher that copies only
 * data (bmaptool, genimage, fwup) writes these zeros too.
 */
enum fp_err fp_img_zero(struct fp_img *img, uint64_t off, uint64_t len);

/*
 * Make [off, off + len) read as zeros: punch a hole in a regular file where
 * the host filesystem supports it, otherwise write zeros as fp_img_zero().
 * Faster and smaller, but a flasher that skips holes leaves whatever the
 * target held there.  Counted as one write call, as fp_img_zero().
 */
enum fp_err fp_img_punch(struct fp_img *img, uint64_t off, uint64_t len);

/*
 * The first hole of the file that overlaps [off, off + len), clipped to it:
 * *hole_off and *hole_len (0: none).  Only regular files have holes here;
 * block devices, memory images and filesystems that cannot tell
 * (SEEK_HOLE unsupported) report none.
 */
enum fp_err fp_img_find_hole(struct fp_img *img, uint64_t off, uint64_t len,
			     uint64_t *hole_off, uint64_t *hole_len);

/* fsync the image (a no-op for memory). */
enum fp_err fp_img_sync(struct fp_img *img);

/* errno of the last failed system call, 0 if none. */
int fp_img_errno(const struct fp_img *img);

/*
 * Count of successful write calls (fp_img_write, fp_img_zero, fp_img_punch)
 * so far.
 */
unsigned long fp_img_write_count(const struct fp_img *img);

/* Count of read calls (fp_img_read within the window) so far. */
unsigned long fp_img_read_count(const struct fp_img *img);

/*
 * Count of those reads that a regular file answered from a hole: a read
 * of 64 KiB or more that the filesystem reports (SEEK_DATA) to lie in a
 * hole is filled with zeros without reading.
 */
unsigned long fp_img_hole_reads(const struct fp_img *img);

/*
 * Whether a read of the @len bytes at @off would be answered from a hole
 * as above (zeros, no I/O): 0 for memory images and for what the
 * filesystem does not report.
 */
int fp_img_in_hole(struct fp_img *img, uint64_t off, uint64_t len);

/* Faults the image layer can inject (memory backend and files). */
enum fp_img_fault {
	FP_IMG_FAULT_NONE,
	FP_IMG_FAULT_WRITE,	/* write k fails with errnum, and every
				 * later write too (a dead device) */
	FP_IMG_FAULT_SHORT,	/* write k writes only its first half,
				 * rounded down to 512 bytes, then fails
				 * with errnum; later writes fail too */
	FP_IMG_FAULT_READ,	/* read k fails with errnum; later reads
				 * succeed */
};

/*
 * Inject @kind at call @k (1-based): writes are counted as
 * fp_img_write_count() counts them (fp_img_write and fp_img_zero), reads
 * as fp_img_read_count() does.  One fault at a time; k == 0 or
 * FP_IMG_FAULT_NONE disables it.
 */
void fp_img_fault(struct fp_img *img, enum fp_img_fault kind,
		  unsigned long k, int errnum);

/* fp_img_fault(img, FP_IMG_FAULT_WRITE, k, errnum). */
void fp_img_fail_write(struct fp_img *img, unsigned long k, int errnum);

/*
 * Take an advisory flock() on the image for as long as it is open:
 * exclusive or shared, waiting for it or failing at once with
 * FP_E_LOCKED.  mtools takes the same lock.  Memory images: a no-op.
 * A partition block device first has its whole disk locked the same way
 * (systemd's "Locking Block Device Access": udev skips a locked disk, and
 * systemd-repart takes the same lock), found through /sys and opened as
 * /dev/block/MAJ:MIN or /dev/NAME; a disk without a node is not locked.
 */
enum fp_err fp_img_lock(struct fp_img *img, int exclusive, int wait);

/*
 * The kernel name ("sdb") of the whole disk fp_img_lock() locked or failed
 * to lock, NULL if none.  Borrowed from @img.
 */
const char *fp_img_lock_disk(const struct fp_img *img);

/*
 * The whole disk of the partition device @dev, from the sysfs tree at
 * @sysfs (normally "/sys"; tests give a fake one): *disk and its name
 * (the directory above @dev's, as "sdb" for sdb1) in @name.  FP_E_NOPART
 * when @dev is not a partition or unknown to sysfs; FP_E_IO when the
 * parent's dev file cannot be read or parsed, or @name is too short.
 */
enum fp_err fp_img_sysfs_disk(const char *sysfs, dev_t dev, dev_t *disk,
			      char *name, size_t name_len);

/*
 * 1 if the file @img (as stat() gives it) is the backing file of a Linux
 * loop device, with any offset and size limit, with the first such
 * device's name ("loop0") in @name; 0 if not or unknown.  A regular file
 * is compared by device and inode, a block device by device number.  The
 * loop devices are the loop* directories of @sysfs/block (normally
 * "/sys"; tests give a fake tree).  For each, the device node
 * (/dev/block/MAJ:MIN or /dev/loopN, its number from the dev file) is
 * asked with LOOP_GET_STATUS64 for the backing file's device, inode and
 * device number, which needs the right to open the node (root); else the
 * path in loop/backing_file is stat()ed, as it is and, when it ends in
 * " (deleted)", without that.  The fallback misses a file whose sysfs
 * path leads elsewhere or nowhere: its name deleted, or renamed out of
 * the caller's reach, or in another mount namespace.
 */
int fp_img_loop_find(const char *sysfs, const struct stat *img, char *name,
		     size_t name_len);

/*
 * fp_img_loop_find() in /sys for the open file or block device of @img
 * (fstat); 0 for a memory image.
 */
int fp_img_loop_attached(const struct fp_img *img, char *name,
			 size_t name_len);

/* Close; reports a failing close() as FP_E_IO.  NULL is a no-op. */
enum fp_err fp_img_close(struct fp_img *img);

#endif
