# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the checksum byte of both slots of a 2-slot long name
c_mkfs "$IMG" 16
c_populate "$IMG"
c_file "$IMG" "::Some Long Name.txt" 10
c_x=$(c_long_index "$IMG" :: "Some Long Name.txt") || exit 1
for c_s in 1 2; do
	c_o=$(c_dir_off "$IMG" :: $((c_x - c_s)))
	c_put "$IMG" $((c_o + 13)) 1 $((($(le "$IMG" $((c_o + 13)) 1) + 1) & 255))
done
