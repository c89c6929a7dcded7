/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fp_err.h - error codes of the fatprealloc library: messages, classes. */
#ifndef FP_ERR_H
#define FP_ERR_H

/*
 * What kind of failure an error is.  The command line turns the class
 * into its exit status (0, 4, 8, 16, as e2fsck's FSCK_* values).
 */
enum fp_err_class {
	FP_CLASS_OK,		/* no failure */
	FP_CLASS_DAMAGED,	/* the volume is damaged or inconsistent */
	FP_CLASS_OPERATIONAL,	/* the operation could not be done */
	FP_CLASS_USAGE,		/* the request itself is invalid */
};

/*
 * Every library function returns one of these: one row each, with its
 * class and message, in fp_err.def.  FP_E_IO carries an errno, kept in
 * the image object (fp_img_errno()).
 */
enum fp_err {
#define FP_ERR(name, cls, msg) name,
#include "fp_err.def"
#undef FP_ERR
	FP_E_COUNT
};

/* Message for @err, lowercase, without a full stop; never NULL. */
const char *fp_strerror(enum fp_err err);

/* The class of @err; FP_CLASS_OPERATIONAL for a value out of range. */
enum fp_err_class fp_err_class(enum fp_err err);

#endif
