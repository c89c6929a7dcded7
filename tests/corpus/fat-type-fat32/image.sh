# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# FAT32 with 16100 clusters (mkfs.fat warns, and so does fsck.fat)
rm -f "$IMG"
echo "+ mkfs.fat -C --invariant -F 32 -s 1 $IMG 8192"
mkfs.fat -C --invariant -F 32 -s 1 "$IMG" 8192 >"$T/mkfs.out" 2>&1 || {
	cat "$T/mkfs.out" >&2
	hard_error "mkfs.fat failed"
}
# mtools takes it for FAT16 ("No directory slots"): one file of 3000
# bytes in clusters 3-8, written by hand
c_geom "$IMG"
c_o=$(c_clus_off "$IMG" "$G_ROOTCLUS")
c_text "$IMG" "$c_o" 'F       BIN\040'
c_set_start "$IMG" "$c_o" 3
c_set_size "$IMG" "$c_o" 3000
for c_cl2 in 3 4 5 6 7; do
	c_setfat "$IMG" "$c_cl2" $((c_cl2 + 1))
done
c_setfat "$IMG" 8 "$(c_eoc "$IMG")"
c_fsinfo_fix "$IMG"
