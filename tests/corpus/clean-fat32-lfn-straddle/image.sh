# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a long name whose slots and short entry straddle two directory clusters,
# deleted entries whose clusters were reused, a root of 3 clusters
c_mkfs "$IMG" 32
c_populate "$IMG"
run mmd -i "$IMG" ::ST
for c_k in 01 02 03 04 05 06 07 08 09 10 11 12 13; do
	c_src=$(c_data 5)
	run mcopy -i "$IMG" "$c_src" "::ST/F$c_k.TXT"
done
c_file "$IMG" "::ST/Straddling Long Name.txt" 10
c_x=$(c_long_index "$IMG" ::ST "Straddling Long Name.txt") || exit 1
[ "$c_x" -eq 17 ] || hard_error "short entry at $c_x, not 17"
# deleted entries, their clusters reused
c_file "$IMG" "::ST/Deleted long name.bin" 3000
run mdel -i "$IMG" "::ST/Deleted long name.bin"
c_file "$IMG" "::ST/REUSE.BIN" 3000
# a root of 3 clusters
for c_k in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
	c_src=$(c_data 1)
	run mcopy -i "$IMG" "$c_src" "::R$c_k.TXT"
done
