# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a duplicate in the second cluster of the FAT32 root
c_mkfs "$IMG" 32
c_populate "$IMG"
for c_k in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
	c_src=$(c_data 1)
	run mcopy -i "$IMG" "$c_src" "::R$c_k.TXT"
done
c_rename "$IMG" :: "R30     TXT" 'R01     TXT'
