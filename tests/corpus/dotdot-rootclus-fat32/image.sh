# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# ".." of a first-level directory holds the FAT32 root cluster instead of 0
c_mkfs "$IMG" 32
c_populate "$IMG"
c_geom "$IMG"
c_o=$(c_clus_off "$IMG" "$(c_first "$IMG" ::DIR1)")
c_set_start "$IMG" $((c_o + 32)) "$G_ROOTCLUS"
