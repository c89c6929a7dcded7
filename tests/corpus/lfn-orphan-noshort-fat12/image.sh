# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the short entry of an empty long-named file deleted
c_mkfs "$IMG" 12
c_populate "$IMG"
c_file "$IMG" "::Empty Long Name.txt" 0
c_x=$(c_long_index "$IMG" :: "Empty Long Name.txt") || exit 1
c_text "$IMG" "$(c_dir_off "$IMG" :: "$c_x")" '\345'
