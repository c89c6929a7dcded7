# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a reserved value (0xFFF3) in an entry no chain reaches: also lost
c_mkfs "$IMG" 16
c_populate "$IMG"
c_setfat "$IMG" "$(c_spare "$IMG" 100)" $((0xFFF3))
