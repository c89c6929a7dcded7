# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a subdirectory whose start cluster is out of range
c_mkfs "$IMG" 16
c_populate "$IMG"
c_geom "$IMG"
run mmd -i "$IMG" ::BADDIR
c_free_chain "$IMG" "$(c_first "$IMG" ::BADDIR)"
c_set_start "$IMG" "$(c_entry "$IMG" :: "BADDIR     ")" $((G_MAX + 10))
