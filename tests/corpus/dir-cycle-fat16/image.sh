# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# /A/B/X is /A (X's own cluster freed)
c_mkfs "$IMG" 16
c_populate "$IMG"
run mmd -i "$IMG" ::A ::A/B ::A/B/X
c_free_chain "$IMG" "$(c_first "$IMG" ::A/B/X)"
c_set_start "$IMG" "$(c_entry "$IMG" ::A/B "X          ")" "$(c_first "$IMG" ::A)"
