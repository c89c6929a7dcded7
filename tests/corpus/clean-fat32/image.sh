# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the standard FAT32 image with ordinary content
c_mkfs "$IMG" 32 -n CORPUS32
c_populate "$IMG"
