# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a 3-cluster chain made in the FAT only
c_mkfs "$IMG" 12
c_populate "$IMG"
c_s=$(c_spare "$IMG" 30)
c_setfat "$IMG" "$c_s" $((c_s + 1))
c_setfat "$IMG" $((c_s + 1)) $((c_s + 2))
c_setfat "$IMG" $((c_s + 2)) "$(c_eoc "$IMG")"
