# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# An end-of-directory entry (name[0] 0) and a garbage entry after it.  The
# FAT spec says every entry after the mark is free and mtools stops there,
# but Linux's vfat and fsck.fat read on: an after-end error
c_mkfs "$IMG" 16
c_populate "$IMG"
c_file "$IMG" ::DIR1/LAST.TXT 0
c_o=$(c_entry "$IMG" ::DIR1 "LAST    TXT")
c_text "$IMG" "$c_o" '\000'
c_text "$IMG" $((c_o + 32)) 'lower?? txt'
