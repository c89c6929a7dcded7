# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# FAT entry 1 is not an end-of-chain value
c_mkfs "$IMG" 32
c_populate "$IMG"
c_setfat "$IMG" 1 $((0x0FFFFF00))
