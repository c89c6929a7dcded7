# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# FAT entry 0: its upper bits are not all 1
c_mkfs "$IMG" 16
c_populate "$IMG"
c_setfat "$IMG" 0 $((0x7F00 | $(le "$IMG" 21 1)))
