# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# /A/B/.. points to /C
c_mkfs "$IMG" 12
c_populate "$IMG"
run mmd -i "$IMG" ::A ::A/B ::C
c_o=$(c_clus_off "$IMG" "$(c_first "$IMG" ::A/B)")
c_set_start "$IMG" $((c_o + 32)) "$(c_first "$IMG" ::C)"
