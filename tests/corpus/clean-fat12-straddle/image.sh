# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a 700000-byte file whose chain runs through the FAT12 entry 341, which
# straddles the first and second FAT sector
c_mkfs "$IMG" 12
c_populate "$IMG"
c_file "$IMG" ::BIG.BIN 700000
