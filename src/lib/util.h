/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* util.h - small helpers shared by the library modules: growable arrays. */
#ifndef FP_UTIL_H
#define FP_UTIL_H

#include <stddef.h>

#include "fp_err.h"

/*
 * Make room for one more element of @elem bytes in the array *@arrp (a
 * pointer to any pointer type) that holds @count of *@cap elements.  If
 * it is full the capacity doubles (16 the first time) through realloc().
 * On FP_E_NOMEM, also when the new size in bytes would overflow, *@arrp
 * and *@cap are left as they were; the caller still owns the array.
 */
enum fp_err fp_grow(void *arrp, size_t *cap, size_t count, size_t elem);

#endif
