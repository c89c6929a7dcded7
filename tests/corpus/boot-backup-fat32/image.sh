# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the volume ID (offset 67) of the backup boot sector changed
c_mkfs "$IMG" 32
c_populate "$IMG"
c_geom "$IMG"
c_put "$IMG" $(($(le "$IMG" 50 2) * G_BPS + 67)) 4 $((0x5A5A5A5A))
