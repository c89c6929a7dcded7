# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a '/' in a long name (unit 4 of "Some Long Name.txt", in the root):
# mtools lists "Some/Long Name.txt", fsck.fat says nothing, and Linux's
# readdir of the whole directory fails with EIO (the volume goes read-only)
c_mkfs "$IMG" 16
c_populate "$IMG"
c_file "$IMG" "::Some Long Name.txt" 10
c_x=$(c_long_index "$IMG" :: "Some Long Name.txt") || exit 1
c_text "$IMG" $(($(c_dir_off "$IMG" :: $((c_x - 1))) + 1 + 2 * 4)) /
