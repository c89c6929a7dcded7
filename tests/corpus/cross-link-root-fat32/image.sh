# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a file that starts at the FAT32 root cluster
c_mkfs "$IMG" 32
c_populate "$IMG"
c_geom "$IMG"
c_file "$IMG" ::DIR1/ROOTY.BIN 100
c_free_chain "$IMG" "$(c_first "$IMG" ::DIR1/ROOTY.BIN)"
c_set_start "$IMG" "$(c_entry "$IMG" ::DIR1 "ROOTY   BIN")" "$G_ROOTCLUS"
c_fsinfo_fix "$IMG"
