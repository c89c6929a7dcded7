# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# size 0 with a chain (a new file after -n), in a subdirectory
c_mkfs "$IMG" 16
c_populate "$IMG"
c_geom "$IMG"
c_file "$IMG" ::DIR1/KEEP0.BIN $((G_CLUS * 4))
c_set_size "$IMG" "$(c_entry "$IMG" ::DIR1 "KEEP0   BIN")" 0
