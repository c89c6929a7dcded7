# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# c3 links back to the start
c_mkfs "$IMG" 32
c_populate "$IMG"
c_geom "$IMG"
c_file "$IMG" ::DIR1/SUB/LOOP.BIN $((G_CLUS * 3))
c_chain "$IMG" "$(c_first "$IMG" ::DIR1/SUB/LOOP.BIN)" >"$T/c.ch"
c_setfat "$IMG" "$(sed -n 3p "$T/c.ch")" "$(sed -n 1p "$T/c.ch")"
