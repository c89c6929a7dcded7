# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# two long names equal but for case ("alpha..." and "Alpha..."): the first
# character of the second one's last LFN slot (ordinal 1) is patched
c_mkfs "$IMG" 32
c_populate "$IMG"
run mmd -i "$IMG" ::LN
c_file "$IMG" "::LN/Alpha Long Name.txt" 10
c_file "$IMG" "::LN/Blpha Long Name.txt" 20
c_x=$(c_long_index "$IMG" ::LN "Blpha Long Name.txt") || exit 1
c_o=$(c_dir_off "$IMG" ::LN $((c_x - 1)))
[ "$(le "$IMG" "$c_o" 1)" -eq 1 ] || hard_error "LFN slot 1 not found"
c_text "$IMG" $((c_o + 1)) 'a'
