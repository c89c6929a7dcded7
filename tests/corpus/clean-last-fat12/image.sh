# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a file in the last two clusters of the volume
c_mkfs "$IMG" 12
c_populate "$IMG"
c_geom "$IMG"
c_file "$IMG" ::LAST.BIN 100
c_free_chain "$IMG" "$(c_first "$IMG" ::LAST.BIN)"
c_l=$(c_spare "$IMG" 1)
c_setfat "$IMG" "$c_l" $((c_l + 1))
c_setfat "$IMG" $((c_l + 1)) "$(c_eoc "$IMG")"
c_o=$(c_entry "$IMG" :: "LAST    BIN")
c_set_start "$IMG" "$c_o" "$c_l"
c_set_size "$IMG" "$c_o" $((G_CLUS + 1))
