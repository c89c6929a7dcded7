# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the last copy marks a free cluster bad, which the active one does not
c_mkfs "$IMG" 12
c_populate "$IMG"
c_setfat "$IMG" "$(c_spare "$IMG" 50)" "$(c_bad "$IMG")" 1
