# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# The root's first file entry turned into an end-of-directory mark: the
# files after it are gone for mtools but live for Linux's vfat and
# fsck.fat.  after-end at the root; the marked file's chain, and the
# chains behind the mark, are lost to a reader that stops there
c_mkfs "$IMG" 32
c_geom "$IMG"
c_file "$IMG" ::FIRST.BIN 1
c_file "$IMG" ::SECOND.BIN "$G_CLUS"
c_file "$IMG" ::THIRD.BIN $((G_CLUS * 2))
c_text "$IMG" "$(c_entry "$IMG" :: "FIRST   BIN")" '\000'
