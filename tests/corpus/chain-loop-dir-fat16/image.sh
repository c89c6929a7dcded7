# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a directory of 2 clusters whose second links back to the first
c_mkfs "$IMG" 16
c_populate "$IMG"
run mmd -i "$IMG" ::BIGDIR
for c_k in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35; do
	c_src=$(c_data 1)
	run mcopy -i "$IMG" "$c_src" "::BIGDIR/F$c_k.TXT"
done
c_chain "$IMG" "$(c_first "$IMG" ::BIGDIR)" >"$T/c.ch"
[ "$(wc -l <"$T/c.ch")" -eq 2 ] || hard_error "BIGDIR not 2 clusters"
c_setfat "$IMG" "$(sed -n 2p "$T/c.ch")" "$(sed -n 1p "$T/c.ch")"
