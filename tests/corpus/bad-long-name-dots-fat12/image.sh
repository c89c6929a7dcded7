# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a long name "..", in ::DIR1/SUB: Linux lists it as a second ".." entry
# (which find, tar and rsync skip, so the file is missed) and opens the
# parent directory by it; fsck.fat says nothing
c_mkfs "$IMG" 12
c_populate "$IMG"
c_file "$IMG" "::DIR1/SUB/Some Long Name.txt" 10
c_x=$(c_long_index "$IMG" ::DIR1/SUB "Some Long Name.txt") || exit 1
c_o=$(c_dir_off "$IMG" ::DIR1/SUB $((c_x - 1)))
# units 0-4, 5-10 and 11-12 of the slot: "..", 0, then 0xFFFF padding
c_text "$IMG" $((c_o + 1)) '.\000.\000\000\000\377\377\377\377'
c_text "$IMG" $((c_o + 14)) '\377\377\377\377\377\377\377\377\377\377\377\377'
c_text "$IMG" $((c_o + 28)) '\377\377\377\377'
