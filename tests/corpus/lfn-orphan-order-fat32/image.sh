# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the first slot's ordinal 0x42 becomes 0x43
c_mkfs "$IMG" 32
c_populate "$IMG"
c_file "$IMG" "::DIR1/Some Long Name.txt" 10
c_x=$(c_long_index "$IMG" ::DIR1 "Some Long Name.txt") || exit 1
c_o=$(c_dir_off "$IMG" ::DIR1 $((c_x - 2)))
[ "$(le "$IMG" "$c_o" 1)" -eq 66 ] || hard_error "LFN slot 0x42 not found"
c_put "$IMG" "$c_o" 1 67
