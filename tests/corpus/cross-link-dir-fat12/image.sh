# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a file that starts at the cluster of /DIR1: DIR1 and its contents are
# still reachable, so nothing is lost
c_mkfs "$IMG" 12
c_populate "$IMG"
c_file "$IMG" ::F.BIN 100
c_free_chain "$IMG" "$(c_first "$IMG" ::F.BIN)"
c_set_start "$IMG" "$(c_entry "$IMG" :: "F       BIN")" "$(c_first "$IMG" ::DIR1)"
