# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a 1.44 MB floppy layout: media byte 0xF0, not 0xF8
mkimg "$IMG" 12 1440
[ "$(le "$IMG" 21 1)" -eq 240 ] || hard_error "media byte not 0xF0"
c_populate "$IMG"
