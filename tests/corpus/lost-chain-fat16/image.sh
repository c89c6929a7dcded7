# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# two files whose entries were deleted (0xE5), chains kept: 2 + 3 clusters
c_mkfs "$IMG" 16
c_populate "$IMG"
c_geom "$IMG"
c_file "$IMG" ::GONE1.BIN $((G_CLUS * 2))
c_file "$IMG" ::DIR1/GONE2.BIN $((G_CLUS * 3))
c_text "$IMG" "$(c_entry "$IMG" :: "GONE1   BIN")" '\345'
c_text "$IMG" "$(c_entry "$IMG" ::DIR1 "GONE2   BIN")" '\345'
