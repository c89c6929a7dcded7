# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a lost chain 340-342 across that sector boundary
c_mkfs "$IMG" 12
c_populate "$IMG"
c_setfat "$IMG" 340 341
c_setfat "$IMG" 341 342
c_setfat "$IMG" 342 "$(c_eoc "$IMG")"
