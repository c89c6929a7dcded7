# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# 3 clusters c1 c2 c3, c3 links back to c2
c_mkfs "$IMG" 16
c_populate "$IMG"
c_geom "$IMG"
c_file "$IMG" ::LOOP.BIN $((G_CLUS * 2 + 1))
c_chain "$IMG" "$(c_first "$IMG" ::LOOP.BIN)" >"$T/c.ch"
c_setfat "$IMG" "$(sed -n 3p "$T/c.ch")" "$(sed -n 2p "$T/c.ch")"
