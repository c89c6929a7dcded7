# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# across two directories; B's chain is A's last 2 clusters
c_mkfs "$IMG" 32
c_populate "$IMG"
c_geom "$IMG"
run mmd -i "$IMG" ::D1 ::D2
c_file "$IMG" ::D1/A.BIN $((G_CLUS * 3))
c_file "$IMG" ::D2/B.BIN $((G_CLUS * 2))
c_chain "$IMG" "$(c_first "$IMG" ::D1/A.BIN)" >"$T/c.ch"
c_free_chain "$IMG" "$(c_first "$IMG" ::D2/B.BIN)"
c_set_start "$IMG" "$(c_entry "$IMG" ::D2 "B       BIN")" "$(sed -n 2p "$T/c.ch")"
c_fsinfo_fix "$IMG"
