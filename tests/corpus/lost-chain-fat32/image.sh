# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a file whose entry was deleted (0xE5), its 4-cluster chain kept
c_mkfs "$IMG" 32
c_populate "$IMG"
c_geom "$IMG"
c_file "$IMG" ::DIR1/SUB/GONE.BIN $((G_CLUS * 4))
c_text "$IMG" "$(c_entry "$IMG" ::DIR1/SUB "GONE    BIN")" '\345'
