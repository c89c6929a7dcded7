# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# size 100 with start cluster 0
c_mkfs "$IMG" 12
c_populate "$IMG"
c_file "$IMG" ::DIR1/ZERO.BIN 0
c_set_size "$IMG" "$(c_entry "$IMG" ::DIR1 "ZERO    BIN")" 100
