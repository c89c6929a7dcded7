# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the last cluster of the volume, lost
c_mkfs "$IMG" 16
c_populate "$IMG"
c_setfat "$IMG" "$(c_spare "$IMG" 0)" "$(c_eoc "$IMG")"
