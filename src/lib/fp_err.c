/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fp_err.c - the one message table of the library, with each error's class. */
#include "fp_err.h"

/* The error table, made from fp_err.def. */
static const struct {
	const char *msg;
	enum fp_err_class cls;
} errors[FP_E_COUNT] = {
#define FP_ERR(name, cls_, msg_) [name] = { .msg = msg_, .cls = cls_ },
#include "fp_err.def"
#undef FP_ERR
};

const char *fp_strerror(enum fp_err err)
{
	if ((unsigned)err >= FP_E_COUNT)
		return "unknown error";
	return errors[err].msg;
}

enum fp_err_class fp_err_class(enum fp_err err)
{
	if ((unsigned)err >= FP_E_COUNT)
		return FP_CLASS_OPERATIONAL;
	return errors[err].cls;
}
