# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the second FAT copy frees the first cluster of a file
c_mkfs "$IMG" 32
c_populate "$IMG"
c_f=$(c_first "$IMG" "::DIR1/SUB/Deep File.txt")
c_setfat "$IMG" "$c_f" 0 1
