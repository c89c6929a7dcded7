# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the dirty flag in the boot sector (offset 37)
c_mkfs "$IMG" 16
c_populate "$IMG"
c_state_bit "$IMG" 37
