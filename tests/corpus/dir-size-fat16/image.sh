# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a directory entry with a size other than 0
c_mkfs "$IMG" 16
c_populate "$IMG"
c_set_size "$IMG" "$(c_entry "$IMG" :: "DIR1       ")" 2048
