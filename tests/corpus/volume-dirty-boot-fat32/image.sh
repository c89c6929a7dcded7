# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# FAT32: the state byte in the boot sector and its backup alike
c_mkfs "$IMG" 32
c_populate "$IMG"
c_geom "$IMG"
c_state_bit "$IMG" 65
c_state_bit "$IMG" $(($(le "$IMG" 50 2) * G_BPS + 65))
