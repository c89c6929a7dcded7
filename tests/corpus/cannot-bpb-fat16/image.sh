# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# 3 sectors per cluster
c_mkfs "$IMG" 16
c_populate "$IMG"
c_put "$IMG" 13 1 3
