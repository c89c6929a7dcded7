# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the second FAT copy ends a file's chain after its first cluster
c_mkfs "$IMG" 16
c_populate "$IMG"
c_f=$(c_first "$IMG" "::A long file name.data")
c_setfat "$IMG" "$c_f" "$(c_eoc "$IMG")" 1
