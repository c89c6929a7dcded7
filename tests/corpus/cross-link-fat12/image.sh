# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# B starts at A's second cluster (B's own cluster freed)
c_mkfs "$IMG" 12
c_populate "$IMG"
c_cross_link_ab "$IMG"
