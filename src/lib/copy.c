/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* copy.c - write a host file's bytes into runs of an image. */
#include "copy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define COPY_BUF (1u << 20)	/* the buffer: bytes per read and write */
#define TICK_PIECE (16u << 20)	/* bytes per progress report at most */

struct fp_copy {
	uint8_t *buf;
	const uint8_t *mem;	/* fp_copy_mem(): the source; else NULL */
	int no_offload;		/* copy_file_range refused once: never again */
	int errnum;
	uint64_t offloaded;
	struct fp_tick *tick;	/* borrowed; NULL: no progress */
	uint64_t done;		/* bytes reported to tick */
};

enum fp_err fp_copy_new(struct fp_copy **out)
{
	struct fp_copy *c = calloc(1, sizeof(*c));

	if (c)
		c->buf = malloc(COPY_BUF);
	if (!c || !c->buf) {
		free(c);
		return FP_E_NOMEM;
	}
	*out = c;
	return FP_OK;
}

void fp_copy_free(struct fp_copy *c)
{
	if (!c)
		return;
	free(c->buf);
	free(c);
}

int fp_copy_errno(const struct fp_copy *c)
{
	return c->errnum;
}

void fp_copy_progress(struct fp_copy *c, struct fp_tick *tick,
		      uint64_t done)
{
	c->tick = tick;
	c->done = done;
}

uint64_t fp_copy_offloaded(const struct fp_copy *c)
{
	return c->offloaded;
}

static enum fp_err src_error(struct fp_copy *c, int errnum)
{
	c->errnum = errnum;
	return FP_E_SRC;
}

/* Read exactly @len bytes at @off of @fd (or c->mem) into c->buf. */
static enum fp_err read_full(struct fp_copy *c, int fd, uint64_t off,
			     size_t len)
{
	size_t done = 0;
	ssize_t n;

	if (c->mem) {
		memcpy(c->buf, c->mem + off, len);
		return FP_OK;
	}
	while (done < len) {
		n = pread(fd, c->buf + done, len - done,
			  (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return src_error(c, errno);
		if (n == 0)
			return FP_E_CHANGED;
		done += (size_t)n;
	}
	return FP_OK;
}

/* [@src_off, + @len) of @fd to @off of the image, through the buffer. */
static enum fp_err copy_buffered(struct fp_copy *c, struct fp_img *img,
				 int fd, uint64_t src_off, uint64_t off,
				 uint64_t len)
{
	size_t n;
	enum fp_err err = FP_OK;

	while (!err && len) {
		n = len < COPY_BUF ? (size_t)len : COPY_BUF;
		err = read_full(c, fd, src_off, n);
		if (!err)
			err = fp_img_write(img, off, c->buf, n);
		src_off += n;
		off += n;
		len -= n;
	}
	return err;
}

/* Data of the source: offloaded to the kernel when it takes it. */
static enum fp_err copy_data(struct fp_copy *c, struct fp_img *img, int fd,
			     uint64_t src_off, uint64_t off, uint64_t len)
{
	enum fp_err err = FP_E_INVAL;

	if (c->mem)
		return copy_buffered(c, img, fd, src_off, off, len);
	if (!c->no_offload)
		err = fp_img_copy_fd(img, off, fd, src_off, len);
	if (err == FP_E_INVAL) {
		c->no_offload = 1;
		return copy_buffered(c, img, fd, src_off, off, len);
	}
	if (!err)
		c->offloaded += len;
	return err;
}

/*
 * Where the data at or after @pos (below @end) of @fd starts and stops:
 * *data and *hole; a filesystem that cannot tell says all is data.
 */
static enum fp_err next_data(struct fp_copy *c, int fd, uint64_t pos,
			     uint64_t end, uint64_t *data, uint64_t *hole)
{
	off_t d = c->mem ? 0 : lseek(fd, (off_t)pos, SEEK_DATA), h;

	if (c->mem) {		/* memory has no holes */
		*data = pos;
		*hole = end;
		return FP_OK;
	}
	if (d < 0 && errno == ENXIO)
		d = (off_t)end;
	else if (d < 0 && (errno == EINVAL || errno == EOPNOTSUPP)) {
		*data = pos;
		*hole = end;
		return FP_OK;
	} else if (d < 0) {
		return src_error(c, errno);
	}
	*data = (uint64_t)d < end ? (uint64_t)d : end;
	h = *data < end ? lseek(fd, (off_t)*data, SEEK_HOLE) : (off_t)end;
	if (h < 0)
		return src_error(c, errno);
	*hole = (uint64_t)h < end ? (uint64_t)h : end;
	return FP_OK;
}

/*
 * Bytes [@src_off, + @len) of the file to @off, then @pad zeros: in one
 * write when it all fits the buffer (holes read as zeros), else data by
 * data and zeros for each hole.
 */
static enum fp_err put_span(struct fp_copy *c, struct fp_img *img, int fd,
			    uint64_t src_off, uint64_t off, uint64_t len,
			    uint64_t pad)
{
	uint64_t pos = src_off, end = src_off + len, data, hole;
	enum fp_err err = FP_OK;

	if (len + pad <= COPY_BUF) {
		err = read_full(c, fd, src_off, (size_t)len);
		if (!err) {
			memset(c->buf + len, 0, (size_t)pad);
			err = fp_img_write(img, off, c->buf,
					   (size_t)(len + pad));
		}
		return err;
	}
	while (!err && pos < end) {
		err = next_data(c, fd, pos, end, &data, &hole);
		if (!err && data > pos)
			err = fp_img_zero(img, off + (pos - src_off),
					  data - pos);
		if (!err && hole > data)
			err = copy_data(c, img, fd, data,
					off + (data - src_off), hole - data);
		if (!err)
			pos = hole;
	}
	return err ? err : fp_img_zero(img, off + len, pad);
}

/* put_span() of one run, in pieces of TICK_PIECE when progress is told. */
static enum fp_err put_run(struct fp_copy *c, struct fp_img *img, int fd,
			   uint64_t src_off, uint64_t off, uint64_t len,
			   uint64_t pad)
{
	uint64_t n, p;
	enum fp_err err = FP_OK;

	do {
		n = c->tick && len > TICK_PIECE ? TICK_PIECE : len;
		p = n == len ? pad : 0;
		err = put_span(c, img, fd, src_off, off, n, p);
		src_off += n;
		off += n;
		len -= n;
		c->done += n + p;
		if (!err && c->tick)
			fp_progress_tick(c->tick, c->done);
	} while (!err && len);
	return err;
}

static enum fp_err copy_runs(struct fp_copy *c, struct fp_img *img, int fd,
			     uint64_t size, const struct fp_copy_run *runs,
			     size_t count)
{
	uint64_t pos = 0, n;
	enum fp_err err = FP_OK;
	size_t i;

	for (i = 0; !err && i < count; i++) {
		n = size - pos < runs[i].len ? size - pos : runs[i].len;
		err = put_run(c, img, fd, pos, runs[i].off, n,
			      i + 1 == count ? runs[i].len - n : 0);
		pos += n;
	}
	return err;
}

/*
 * The source is opened O_NONBLOCK, so that a FIFO put in its place since
 * the scan is found by fstat() instead of waiting for a writer; the flag
 * is cleared before the reads.
 */
enum fp_err fp_copy_file(struct fp_copy *c, struct fp_img *img,
			 const char *src, uint64_t size,
			 const struct fp_copy_run *runs, size_t count)
{
	struct stat st;
	enum fp_err err;
	int fd = open(src, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return src_error(c, errno);
	if (fstat(fd, &st) < 0)
		err = src_error(c, errno);
	else if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != size)
		err = FP_E_CHANGED;
	else if (fcntl(fd, F_SETFL, 0) < 0)	/* its only status flag */
		err = src_error(c, errno);
	else
		err = copy_runs(c, img, fd, size, runs, count);
	close(fd);
	return err;
}

enum fp_err fp_copy_mem(struct fp_copy *c, struct fp_img *img,
			const uint8_t *data, uint64_t size,
			const struct fp_copy_run *runs, size_t count)
{
	enum fp_err err;

	c->mem = data;
	err = copy_runs(c, img, -1, size, runs, count);
	c->mem = NULL;
	return err;
}
