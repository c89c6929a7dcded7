# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# long-name slots followed by the end of the directory
c_mkfs "$IMG" 16
c_populate "$IMG"
c_file "$IMG" "::DIR1/Ends The Directory.txt" 0
c_x=$(c_long_index "$IMG" ::DIR1 "Ends The Directory.txt") || exit 1
c_text "$IMG" "$(c_dir_off "$IMG" ::DIR1 "$c_x")" '\000'
