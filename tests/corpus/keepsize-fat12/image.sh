# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a 3-cluster chain for a file of 100 bytes
c_mkfs "$IMG" 12
c_populate "$IMG"
c_geom "$IMG"
c_file "$IMG" ::KEEP.BIN $((G_CLUS * 3))
c_set_size "$IMG" "$(c_entry "$IMG" :: "KEEP    BIN")" 100
