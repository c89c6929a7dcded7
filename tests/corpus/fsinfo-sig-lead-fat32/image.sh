# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the FSInfo lead signature changed
c_mkfs "$IMG" 32
c_populate "$IMG"
c_geom "$IMG"
c_text "$IMG" $(($(le "$IMG" 48 2) * G_BPS + 3)) 'B'
