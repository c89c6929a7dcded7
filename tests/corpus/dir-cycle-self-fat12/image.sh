# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# /A/X is /A
c_mkfs "$IMG" 12
c_populate "$IMG"
run mmd -i "$IMG" ::A ::A/X
c_free_chain "$IMG" "$(c_first "$IMG" ::A/X)"
c_set_start "$IMG" "$(c_entry "$IMG" ::A "X          ")" "$(c_first "$IMG" ::A)"
