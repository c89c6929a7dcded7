# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# "." deleted (0xE5)
c_mkfs "$IMG" 16
c_populate "$IMG"
run mmd -i "$IMG" ::NODOT
c_text "$IMG" "$(c_clus_off "$IMG" "$(c_first "$IMG" ::NODOT)")" '\345'
