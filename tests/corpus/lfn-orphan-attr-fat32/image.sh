# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the attribute of the last slot of a 2-slot long name set to 0x4F (a
# reserved bit): a long-name slot by the FAT specification's mask, a
# volume label to Linux, mtools and fsck.fat
c_mkfs "$IMG" 32
c_populate "$IMG"
c_file "$IMG" "::Some Long Name.txt" 10
c_x=$(c_long_index "$IMG" :: "Some Long Name.txt") || exit 1
c_o=$(c_dir_off "$IMG" :: $((c_x - 1)))
c_text "$IMG" $((c_o + 11)) '\117'
