# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a unit after the end of a long name (its 0) that is not 0xFFFF: FatFs
# drops the slot and lists the file by its short name, Linux, mtools and
# fsck.fat read the name up to the 0
c_mkfs "$IMG" 32
c_populate "$IMG"
c_file "$IMG" "::DIR1/Some Long Name.txt" 10
c_x=$(c_long_index "$IMG" ::DIR1 "Some Long Name.txt") || exit 1
# its last slot holds units 13-25: "e.txt", the 0 (byte 14), then 0xFFFF;
# unit 19 (byte 16) := 'z'
c_text "$IMG" $(($(c_dir_off "$IMG" ::DIR1 $((c_x - 2))) + 16)) 'z\000'
