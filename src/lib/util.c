/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* util.c - small helpers shared by the library modules: growable arrays. */
#include "util.h"

#include <stdint.h>
#include <stdlib.h>

enum fp_err fp_grow(void *arrp, size_t *cap, size_t count, size_t elem)
{
	void **arr = arrp;
	size_t ncap;
	void *p;

	if (count < *cap)
		return FP_OK;
	if (*cap > SIZE_MAX / 2)
		return FP_E_NOMEM;
	ncap = *cap ? *cap * 2 : 16;
	if (elem && ncap > SIZE_MAX / elem)
		return FP_E_NOMEM;
	p = realloc(*arr, ncap * elem);
	if (!p)
		return FP_E_NOMEM;
	*arr = p;
	*cap = ncap;
	return FP_OK;
}
