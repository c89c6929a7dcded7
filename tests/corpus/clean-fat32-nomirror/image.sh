# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# FAT32 with mirroring off (ExtFlags bit 7, active FAT 1; set after mtools
# wrote, as mtools 4.0.32 writes FAT 0 whatever ExtFlags say): FAT 0 is
# stale, it lacks the chain of ACTIVE.BIN and has a stray value in a free
# entry, which is allowed.
c_mkfs "$IMG" 32
c_populate "$IMG"
c_geom "$IMG"
c_file "$IMG" ::ACTIVE.BIN 1500
c_put "$IMG" 40 2 129
c_put "$IMG" $(($(le "$IMG" 50 2) * G_BPS + 40)) 2 129
c_chain "$IMG" "$(c_first "$IMG" ::ACTIVE.BIN)" 1 >"$T/c.act"
[ "$(wc -l <"$T/c.act")" -eq 3 ] || hard_error "ACTIVE.BIN not 3 clusters"
while read -r c_cl2; do
	c_setfat "$IMG" "$c_cl2" 0 0
done <"$T/c.act"
c_setfat "$IMG" "$(c_spare "$IMG" 100)" 12345 0
