# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# two files with the same start cluster (of different sizes: alike in
# size and attributes they are the moved-twice state of a cut --mv)
c_mkfs "$IMG" 16
c_populate "$IMG"
c_geom "$IMG"
c_file "$IMG" ::A.BIN $((G_CLUS + 1))
c_file "$IMG" ::DIR1/B.BIN $((G_CLUS + 2))
c_free_chain "$IMG" "$(c_first "$IMG" ::DIR1/B.BIN)"
c_set_start "$IMG" "$(c_entry "$IMG" ::DIR1 "B       BIN")" "$(c_first "$IMG" ::A.BIN)"
