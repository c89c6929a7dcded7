# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a link beyond the last cluster is also a bad FAT entry
c_mkfs "$IMG" 32
c_populate "$IMG"
c_link_on "$IMG" ::RANGE.BIN
c_setfat "$IMG" "$c_last" $((G_MAX + 5))
