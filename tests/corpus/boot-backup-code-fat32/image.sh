# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# what syslinux --install does: the OEM name (3-10) and boot code (90-509)
# of sector 0 changed, not those of the backup
c_mkfs "$IMG" 32
c_populate "$IMG"
c_text "$IMG" 3 'SYSLINUX'
c_text "$IMG" 90 '\372\374\061\311'
c_text "$IMG" 500 '\376\002\262\076\030\067'
