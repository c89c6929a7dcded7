# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# size 4 GiB - 1 with a 1-cluster chain
c_mkfs "$IMG" 12
c_populate "$IMG"
c_file "$IMG" ::HUGE.BIN 100
c_set_size "$IMG" "$(c_entry "$IMG" :: "HUGE    BIN")" $((0xFFFFFFFF))
