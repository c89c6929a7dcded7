# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the cluster field of a long-name slot set to 5 (it must be 0): FatFs
# drops the slot and lists the file by its short name, Linux and mtools
# read the long name, fsck.fat zeroes the field
c_mkfs "$IMG" 16
c_populate "$IMG"
c_file "$IMG" "::Some Long Name.txt" 10
c_x=$(c_long_index "$IMG" :: "Some Long Name.txt") || exit 1
c_text "$IMG" $(($(c_dir_off "$IMG" :: $((c_x - 1))) + 26)) '\005'
