# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# FAT entry 0: its low byte is not the media byte
c_mkfs "$IMG" 32
c_populate "$IMG"
c_setfat "$IMG" 0 $((0x0FFFFF00 | $(c_media_other "$IMG")))
