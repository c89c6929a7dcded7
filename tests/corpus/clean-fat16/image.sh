# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the standard FAT16 image with ordinary content
c_mkfs "$IMG" 16 -n CORPUS16
c_populate "$IMG"
