# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# an empty subdirectory whose start cluster is 0 (its cluster freed)
c_mkfs "$IMG" 12
c_populate "$IMG"
run mmd -i "$IMG" ::NOCHAIN
c_free_chain "$IMG" "$(c_first "$IMG" ::NOCHAIN)"
c_set_start "$IMG" "$(c_entry "$IMG" :: "NOCHAIN    ")" 0
