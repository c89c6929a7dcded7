# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# FP_CHECK_PKG_USABLE(NAME, VARIABLE-PREFIX, HEADER, FUNCTION,
#                     [ACTION-IF-USABLE], [ACTION-IF-NOT-USABLE])
# ---------------------------------------------------------------
# After PKG_CHECK_MODULES(VARIABLE-PREFIX, ...) has found NAME: check that
# $CC compiles HEADER with VARIABLE-PREFIX_CFLAGS and links FUNCTION with
# VARIABLE-PREFIX_LIBS.  pkg-config may describe the build host's C
# library, not that of $CC (CC=musl-gcc reads glibc's .pc files), and the
# mismatch would otherwise show only as a failed make.  Before
# ACTION-IF-NOT-USABLE, fp_pkg_why says what failed.
AC_DEFUN([FP_CHECK_PKG_USABLE], [
AC_CACHE_CHECK([whether $CC can use $1], [fp_cv_pkg_usable_$1], [
	fp_save_CPPFLAGS=$CPPFLAGS
	fp_save_LIBS=$LIBS
	CPPFLAGS="$CPPFLAGS $$2_CFLAGS"
	LIBS="$$2_LIBS $LIBS"
	AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <$3>]])],
		[AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <$3>]],
				[[void *volatile p = (void *)&$4;
				return p == 0;]])],
			[fp_cv_pkg_usable_$1=yes],
			[fp_cv_pkg_usable_$1="no, $4 does not link"])],
		[fp_cv_pkg_usable_$1="no, $3 does not compile"])
	CPPFLAGS=$fp_save_CPPFLAGS
	LIBS=$fp_save_LIBS])
AS_IF([test "x$fp_cv_pkg_usable_$1" = xyes], [$5],
	[fp_pkg_why=${fp_cv_pkg_usable_$1@%:@no, }
	$6])
])
