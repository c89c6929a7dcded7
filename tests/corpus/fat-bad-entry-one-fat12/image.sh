# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the value 1, likewise
c_mkfs "$IMG" 12
c_populate "$IMG"
c_setfat "$IMG" "$(c_spare "$IMG" 100)" 1
