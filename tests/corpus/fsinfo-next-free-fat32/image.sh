# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the FSInfo next-free hint beyond the last cluster
c_mkfs "$IMG" 32
c_populate "$IMG"
c_geom "$IMG"
c_put "$IMG" $(($(le "$IMG" 48 2) * G_BPS + 492)) 4 $((G_MAX + 10))
