# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a 6-cluster chain for a file of one cluster plus 1 byte, two levels down
c_mkfs "$IMG" 32
c_populate "$IMG"
c_geom "$IMG"
c_file "$IMG" ::DIR1/SUB/KEEP.BIN $((G_CLUS * 6))
c_set_size "$IMG" "$(c_entry "$IMG" ::DIR1/SUB "KEEP    BIN")" $((G_CLUS + 1))
