# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a lost chain of 2 clusters that link to each other
c_mkfs "$IMG" 16
c_populate "$IMG"
c_s=$(c_spare "$IMG" 20)
c_setfat "$IMG" "$c_s" $((c_s + 1))
c_setfat "$IMG" $((c_s + 1)) "$c_s"
