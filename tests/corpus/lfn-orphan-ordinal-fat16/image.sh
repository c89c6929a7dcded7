# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# bit 0x80 in the ordinal of the first slot of a 2-slot long name (0x81):
# ordinal 1 to mtools and fsck.fat (the low five bits), 129 to Linux and
# FatFs (every bit but 0x40), which then list the file by its short name
c_mkfs "$IMG" 16
c_populate "$IMG"
c_file "$IMG" "::Some Long Name.txt" 10
c_x=$(c_long_index "$IMG" :: "Some Long Name.txt") || exit 1
c_text "$IMG" "$(c_dir_off "$IMG" :: $((c_x - 1)))" '\201'
