# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the no-I/O-error bit of FAT entry 1 cleared
c_mkfs "$IMG" 16
c_populate "$IMG"
c_setfat "$IMG" 1 $((0xBFFF))
