/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* edit_attr.h - attribute edits (--attr SPEC): the SPEC and its letters. */
#ifndef FP_EDIT_ATTR_H
#define FP_EDIT_ATTR_H

#include <stddef.h>
#include <stdint.h>

#include "fp_err.h"

/* The bits an attribute edit may set or clear: r, h, s and a. */
#define FP_EDIT_ATTR_BITS 0x27u

/*
 * Parse an attribute SPEC as mattrib(1) takes its flags, several in one
 * word: groups of a sign and letters, "+rhs-a", "+r", "-a+h".  '+' sets
 * and '-' clears the letters after it up to the next sign: r read-only,
 * h hidden, s system, a archive (either case).  The volume and directory
 * bits have no letter: an edit never sets or clears them.  An empty SPEC,
 * a sign without letters, another character, or a letter both set and
 * cleared: FP_E_INVAL.  *set and *clear (FP_ATTR_* bits) are set only on
 * success.
 */
enum fp_err fp_edit_attr_parse(const char *spec, uint8_t *set,
			       uint8_t *clear);

/*
 * The bits r, h, s, a of @attr as four characters and a NUL in @out:
 * each bit's letter, or '-' without it ("r--a").
 */
void fp_edit_attr_letters(uint8_t attr, char out[5]);

#endif
