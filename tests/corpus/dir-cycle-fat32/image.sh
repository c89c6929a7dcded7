# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# /A/X is the FAT32 root
c_mkfs "$IMG" 32
c_populate "$IMG"
c_geom "$IMG"
run mmd -i "$IMG" ::A ::A/X
c_free_chain "$IMG" "$(c_first "$IMG" ::A/X)"
c_set_start "$IMG" "$(c_entry "$IMG" ::A "X          ")" "$G_ROOTCLUS"
c_fsinfo_fix "$IMG"
