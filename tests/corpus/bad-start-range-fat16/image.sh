# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# an empty file that starts beyond the last cluster
c_mkfs "$IMG" 16
c_populate "$IMG"
c_geom "$IMG"
c_empty_with_start "$IMG" ::BADST.BIN :: "BADST   BIN" $((G_MAX + 10))
