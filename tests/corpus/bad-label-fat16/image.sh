# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a label with a '?' in the root and in the boot sector: fsck.fat
# removes the root's
c_mkfs "$IMG" 16 -n LABEL1
c_populate "$IMG"
c_geom "$IMG"
c_text "$IMG" "$G_ROOT_OFF" 'LA?EL1'
c_text "$IMG" 43 'LA?EL1'
