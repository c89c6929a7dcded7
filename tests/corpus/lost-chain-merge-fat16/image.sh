# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a lost cluster that links into the middle of a file's chain
c_mkfs "$IMG" 16
c_populate "$IMG"
c_geom "$IMG"
c_file "$IMG" ::M.BIN $((G_CLUS * 3))
c_chain "$IMG" "$(c_first "$IMG" ::M.BIN)" >"$T/c.ch"
c_setfat "$IMG" "$(c_spare "$IMG" 10)" "$(sed -n 2p "$T/c.ch")"
