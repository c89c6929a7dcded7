# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# The upper 4 bits of FAT32 entries are reserved (kept, and ignored on
# reading): set in entries 0 and 1 and in every link of a chain.
c_mkfs "$IMG" 32
c_populate "$IMG"
c_file "$IMG" ::HI.BIN 2000
c_setfat "$IMG" 0 $((0xFFFFFFF8))
c_setfat "$IMG" 1 $((0xFFFFFFFF))
c_chain "$IMG" "$(c_first "$IMG" ::HI.BIN)" >"$T/c.hi"
while read -r c_cl2; do
	c_setfat "$IMG" "$c_cl2" $(($(c_getfat "$IMG" "$c_cl2") | 0xF0000000))
done <"$T/c.hi"
