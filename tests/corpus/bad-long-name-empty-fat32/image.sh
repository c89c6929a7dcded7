# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a long name whose first unit is 0 (an empty name), in ::DIR1: fsck.fat
# says nothing, and Linux's readdir of ::DIR1 fails with EIO
c_mkfs "$IMG" 32
c_populate "$IMG"
c_file "$IMG" "::DIR1/Some Long Name.txt" 10
c_x=$(c_long_index "$IMG" ::DIR1 "Some Long Name.txt") || exit 1
c_o=$(c_dir_off "$IMG" ::DIR1 $((c_x - 1)))
# units 0-4, 5-10 and 11-12 of the slot: 0, then 0xFFFF padding
c_text "$IMG" $((c_o + 1)) '\000\000\377\377\377\377\377\377\377\377'
c_text "$IMG" $((c_o + 14)) '\377\377\377\377\377\377\377\377\377\377\377\377'
c_text "$IMG" $((c_o + 28)) '\377\377\377\377'
