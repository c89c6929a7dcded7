# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# as cross-link-fat12, with 4096-byte sectors
c_mkfs "$IMG" 12 -S 4096 -s 1
c_populate "$IMG"
c_cross_link_ab "$IMG"
