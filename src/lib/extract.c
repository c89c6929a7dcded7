/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* extract.c - copy a volume's file or tree out to the host (--extract). */
#include "extract.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dir.h"
#include "list.h"
#include "path.h"
#include "util.h"

#define EX_NAME_MAX 255		/* bytes of a name on Linux hosts */
#define EX_OPEN_DIR (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

enum ex_kind { EX_ROOT, EX_DIR, EX_FILE };

/*
 * An extraction.  Entries at depth d go into the directory open as cur
 * when cur_depth is d - 1: cur_depth == base_depth is top itself; deeper
 * levels were made (or merged into) by this pass, and going back up is
 * openat(cur, "..") from a directory this pass opened with O_NOFOLLOW,
 * so the descriptors open are two whatever the depth.
 */
struct ex {
	struct fp_fs *fs;	/* borrowed */
	const struct fp_extract_opts *o;
	struct fp_extract_diag *diag;
	const char *dest;
	enum ex_kind kind;
	int top;		/* where the start (or the root's entries) go */
	char *top_name;		/* the start's host name in top, or NULL:
				 * its own name (owned) */
	int fresh;		/* dest does not exist: nothing to clash */
	int cur, cur_depth, base_depth;
	struct timespec *mt;	/* mt[d + 1]: mtime of the directory at
				 * depth d, set when it is left (owned) */
	size_t mt_cap;
	size_t skip;		/* bytes of an entry's path not in the host
				 * path below dest */
	char *hostpfx;		/* dest, or dest "/": what skip leaves out
				 * (owned) */
};

/* ---- diagnostics ------------------------------------------------------ */

static enum fp_err ex_fail(struct ex *x, enum fp_err err, int errnum,
			   const struct fp_list_entry *e)
{
	struct fp_extract_diag *d = x->diag;
	const char *rest = e ? e->path + x->skip : "";
	const char *pfx = x->hostpfx ? x->hostpfx : x->dest;
	size_t n = strlen(pfx);

	d->errnum = errnum;
	free(d->path);
	free(d->host);
	d->path = e ? strndup(e->path, e->path_len) : NULL;
	d->host = malloc(n + strlen(rest) + 1);
	if (d->host) {
		memcpy(d->host, pfx, n);
		strcpy(d->host + n, rest);
	}
	return err;
}

/* ---- host names and times ----------------------------------------------- */

/* 0 if a host may take @name: no control byte, at most 255 bytes. */
static int name_bad(const char *name)
{
	const unsigned char *p;

	for (p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p == 0x7F)
			return 1;
	return p - (const unsigned char *)name > EX_NAME_MAX;
}

/* The stored date and time @t as a host time, or UTIME_OMIT. */
static struct timespec ex_time(const struct fp_list_time *t, int utc)
{
	struct timespec ts = { 0, UTIME_OMIT };
	struct tm tm;
	time_t v;

	if (!t->date || !t->valid)
		return ts;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = t->year - 1900;
	tm.tm_mon = t->month - 1;
	tm.tm_mday = t->day;
	tm.tm_hour = t->hour;
	tm.tm_min = t->minute;
	tm.tm_sec = t->second;
	tm.tm_isdst = -1;
	v = utc ? timegm(&tm) : mktime(&tm);
	if (v == (time_t)-1)
		return ts;
	ts.tv_sec = v;
	ts.tv_nsec = 0;
	return ts;
}

/* The name entry @e takes on the host. */
static const char *host_name(const struct ex *x,
			     const struct fp_list_entry *e)
{
	return !e->depth && x->top_name ? x->top_name : e->name;
}

/* ---- where dest is ------------------------------------------------------ */

/* Split @dest into its directory, opened as x->top, and its last name. */
static enum fp_err open_parent(struct ex *x, int slash)
{
	size_t n = strlen(x->dest), i;
	char *dir;

	while (n > 1 && x->dest[n - 1] == '/')
		n--;
	for (i = n; i && x->dest[i - 1] != '/'; i--)
		;
	x->top_name = strndup(x->dest + i, n - i);
	dir = i ? strndup(x->dest, i > 1 ? i - 1 : 1) : strdup(".");
	if (!x->top_name || !dir) {
		free(dir);
		return FP_E_NOMEM;
	}
	if (slash && x->kind == EX_FILE) {
		free(dir);
		return ex_fail(x, FP_E_NOTDIR, 0, NULL);
	}
	x->top = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (x->top < 0)
		return ex_fail(x, FP_E_HOST, errno, NULL);
	return FP_OK;
}

/*
 * Decide where the start goes, given its kind and @start_len, the bytes
 * of its path (0 for the root) and @name_len those of its name.
 */
static enum fp_err ex_place(struct ex *x, size_t start_len, size_t name_len)
{
	size_t n = strlen(x->dest);
	int slash = n && x->dest[n - 1] == '/';
	struct stat st;

	x->hostpfx = strdup(x->dest);
	if (!x->hostpfx)
		return FP_E_NOMEM;
	if (stat(x->dest, &st)) {
		if (errno != ENOENT)
			return ex_fail(x, FP_E_HOST, errno, NULL);
		x->fresh = 1;
		x->skip = start_len;
		return open_parent(x, slash);
	}
	if (!S_ISDIR(st.st_mode)) {
		if (x->kind != EX_FILE)
			return ex_fail(x, FP_E_NOTDIR, 0, NULL);
		if (!x->o->replace || !S_ISREG(st.st_mode) || slash)
			return ex_fail(x, slash ? FP_E_NOTDIR : FP_E_EXISTS,
				       0, NULL);
		x->skip = start_len;
		return open_parent(x, 0);
	}
	free(x->hostpfx);
	x->hostpfx = malloc(n + 2);
	if (!x->hostpfx)
		return FP_E_NOMEM;
	strcpy(x->hostpfx, x->dest);
	if (!slash)
		strcat(x->hostpfx, "/");
	x->skip = start_len ? start_len - name_len : 1;
	x->top = open(x->dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (x->top < 0)
		return ex_fail(x, FP_E_HOST, errno, NULL);
	return FP_OK;
}

/* ---- the pass that writes nothing ---------------------------------- */

/*
 * Entry @e in the pass that checks: its name, and whether the host
 * already has something in its place that must not be replaced.
 */
static enum fp_err check_entry(struct ex *x, const struct fp_list_entry *e)
{
	int dir = !!(e->attr & FP_ATTR_DIR);
	struct stat st;

	if (name_bad(host_name(x, e)))
		return ex_fail(x, FP_E_HOSTNAME, 0, e);
	if (x->fresh || (!e->depth && x->top_name))
		return FP_OK;	/* nothing there, or checked by ex_place() */
	if (fstatat(x->top, e->path + x->skip, &st, AT_SYMLINK_NOFOLLOW))
		return FP_OK;	/* a failure to make it says why */
	if (dir ? !S_ISDIR(st.st_mode) :
	    !x->o->replace || !S_ISREG(st.st_mode))
		return ex_fail(x, FP_E_EXISTS, 0, e);
	return FP_OK;
}

/*
 * Free the listing @l; where it stopped (@ld) becomes the diagnosis
 * unless an entry's check made one already.
 */
static void ex_list_done(struct ex *x, struct fp_list *l,
			 struct fp_list_diag *ld)
{
	if (ld->path && !x->diag->path) {
		x->diag->path = ld->path;
		x->diag->problem = ld->problem;
		ld->path = NULL;
	}
	fp_list_free(l);
	fp_list_diag_release(ld);
}

/* Walk @path once without runs: damage, names, clashes; place dest. */
static enum fp_err check_pass(struct ex *x, const char *path)
{
	struct fp_list_diag ld = { NULL, FP_P_COUNT };
	const struct fp_list_entry *e;
	struct fp_list *l = NULL;
	const char *p = path, *s;
	enum fp_err err;
	size_t len;

	x->kind = fp_path_next(&p, &s, &len) ? EX_FILE : EX_ROOT;
	err = fp_list_open(x->fs, path, FP_LIST_NO_RUNS, &l, &ld);
	if (!err && x->kind == EX_ROOT)
		err = ex_place(x, 0, 0);
	while (!err && (err = fp_list_next(l, &e, &ld)) == FP_OK && e) {
		if (!e->depth) {
			if (e->attr & FP_ATTR_DIR)
				x->kind = EX_DIR;
			err = ex_place(x, e->path_len, strlen(e->name));
		}
		if (!err)
			err = check_entry(x, e);
	}
	ex_list_done(x, l, &ld);
	return err;
}

/* ---- the pass that writes ---------------------------------------------- */

/* Set the time of the directory cur and go up to its parent. */
static enum fp_err ex_up(struct ex *x)
{
	struct timespec ts[2] = { { 0, UTIME_OMIT },
				  x->mt[x->cur_depth + 1] };
	int fd;

	if (futimens(x->cur, ts))
		return ex_fail(x, FP_E_HOST, errno, NULL);
	if (x->cur_depth - 1 == x->base_depth) {
		fd = x->top;
	} else {
		fd = openat(x->cur, "..", EX_OPEN_DIR);
		if (fd < 0)
			return ex_fail(x, FP_E_HOST, errno, NULL);
	}
	close(x->cur);
	x->cur = fd;
	x->cur_depth--;
	return FP_OK;
}

/* Make (or merge into) directory @name in cur, of time @mt; go into it. */
static enum fp_err ex_down(struct ex *x, const char *name,
			   struct timespec mt, const struct fp_list_entry *e)
{
	int fd;

	if (fp_grow(&x->mt, &x->mt_cap, (size_t)(x->cur_depth + 3),
		    sizeof(*x->mt)))
		return FP_E_NOMEM;
	if (mkdirat(x->cur, name, 0777) && errno != EEXIST)
		return ex_fail(x, FP_E_HOST, errno, e);
	fd = openat(x->cur, name, EX_OPEN_DIR);
	if (fd < 0)
		return ex_fail(x, errno == ENOTDIR || errno == ELOOP ?
			       FP_E_EXISTS : FP_E_HOST, errno, e);
	if (x->cur != x->top)
		close(x->cur);
	x->cur = fd;
	x->cur_depth++;
	x->mt[x->cur_depth + 1] = mt;
	return FP_OK;
}

static enum fp_err write_piece(void *ctx, const uint8_t *buf, size_t len)
{
	int *fd = ctx;
	ssize_t n;

	while (len) {
		n = write(*fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return FP_E_HOST;
		buf += n;
		len -= (size_t)n;
	}
	return FP_OK;
}

/* Open file @name in cur for writing: new, or with --replace a file. */
static int ex_open(struct ex *x, const char *name, int *created)
{
	int fl = O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
	struct stat st;
	int fd;

	*created = 1;
	fd = openat(x->cur, name, fl | O_EXCL, 0666);
	if (fd >= 0 || errno != EEXIST || !x->o->replace)
		return fd;
	*created = 0;
	fd = openat(x->cur, name, fl & ~O_CREAT);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || (!S_ISREG(st.st_mode) && (errno = EEXIST)) ||
	    ftruncate(fd, 0)) {
		int errnum = errno;

		close(fd);
		errno = errnum;
		return -1;
	}
	return fd;
}

/* Write file @e as @name in cur, its content and its time. */
static enum fp_err ex_file(struct ex *x, struct fp_list *l,
			   const struct fp_list_entry *e, const char *name)
{
	struct timespec ts[2] = { { 0, UTIME_OMIT },
				  ex_time(&e->modified, x->o->utc) };
	enum fp_err err;
	int fd, created, errnum = 0;

	fd = ex_open(x, name, &created);
	if (fd < 0)
		return ex_fail(x, errno == EEXIST || errno == ELOOP ?
			       FP_E_EXISTS : FP_E_HOST, errno, e);
	err = fp_list_read(l, e, write_piece, &fd);
	if (err == FP_E_HOST)
		errnum = errno;
	if (!err && futimens(fd, ts)) {
		err = FP_E_HOST;
		errnum = errno;
	}
	if (close(fd) && !err) {
		err = FP_E_HOST;
		errnum = errno;
	}
	if (err && created)
		unlinkat(x->cur, name, 0);
	return err ? ex_fail(x, err, errnum, e) : FP_OK;
}

/* Entry @e in the pass that writes. */
static enum fp_err write_entry(struct ex *x, struct fp_list *l,
			       const struct fp_list_entry *e)
{
	enum fp_err err = FP_OK;

	while (!err && x->cur_depth >= (int)e->depth &&
	       x->cur_depth > x->base_depth)
		err = ex_up(x);
	if (err)
		return err;
	if (e->attr & FP_ATTR_DIR)
		return ex_down(x, host_name(x, e),
			       ex_time(&e->modified, x->o->utc), e);
	return ex_file(x, l, e, host_name(x, e));
}

static enum fp_err write_pass(struct ex *x, const char *path)
{
	struct fp_list_diag ld = { NULL, FP_P_COUNT };
	struct timespec none = { 0, UTIME_OMIT };
	const struct fp_list_entry *e;
	struct fp_list *l = NULL;
	enum fp_err err;

	x->cur = x->top;
	x->base_depth = x->kind == EX_ROOT && !x->fresh ? 0 : -1;
	x->cur_depth = x->base_depth;
	err = fp_list_open(x->fs, path, 0, &l, &ld);
	if (!err && x->kind == EX_ROOT && x->fresh)
		err = ex_down(x, x->top_name, none, NULL);
	while (!err && (err = fp_list_next(l, &e, &ld)) == FP_OK && e)
		err = write_entry(x, l, e);
	while (!err && x->cur_depth > x->base_depth)
		err = ex_up(x);
	if (x->cur != x->top)
		close(x->cur);
	ex_list_done(x, l, &ld);
	return err;
}

enum fp_err fp_extract(struct fp_fs *fs, const char *path, const char *dest,
		       const struct fp_extract_opts *o,
		       struct fp_extract_diag *diag)
{
	struct ex x;
	enum fp_err err;

	memset(&x, 0, sizeof(x));
	memset(diag, 0, sizeof(*diag));
	diag->problem = FP_P_COUNT;
	x.fs = fs;
	x.o = o;
	x.diag = diag;
	x.dest = dest;
	x.top = -1;
	err = check_pass(&x, path ? path : "");
	if (!err)
		err = write_pass(&x, path ? path : "");
	if (x.top >= 0)
		close(x.top);
	free(x.top_name);
	free(x.hostpfx);
	free(x.mt);
	return err;
}

void fp_extract_diag_release(struct fp_extract_diag *diag)
{
	free(diag->path);
	free(diag->host);
	memset(diag, 0, sizeof(*diag));
}
