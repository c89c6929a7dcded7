# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# an empty subdirectory of /DIR1 whose start cluster is 0
c_mkfs "$IMG" 32
c_populate "$IMG"
run mmd -i "$IMG" ::DIR1/NOCHAIN
c_free_chain "$IMG" "$(c_first "$IMG" ::DIR1/NOCHAIN)"
c_set_start "$IMG" "$(c_entry "$IMG" ::DIR1 "NOCHAIN    ")" 0
c_fsinfo_fix "$IMG"
