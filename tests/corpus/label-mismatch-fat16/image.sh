# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a label in the boot sector, the root's label entry deleted (dosfstools'
# check-label-only-boot, Windows XP erasing a mkfs.fat label): fsck.fat
# sets the boot sector's to NO NAME
c_mkfs "$IMG" 16 -n LABEL1
c_populate "$IMG"
c_geom "$IMG"
c_text "$IMG" "$G_ROOT_OFF" '\345'
