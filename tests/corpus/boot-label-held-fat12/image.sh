# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a label removed by --label IMAGE "" cut after its second write
# (docs/DESIGN.md "Labels"): the root's label entry deleted, sector 0 has
# BS_VolLab NO NAME behind signature 0x28
c_mkfs "$IMG" 12 -n OLDLABEL
c_populate "$IMG"
c_text "$IMG" "$G_ROOT_OFF" '\345'
c_text "$IMG" 38 '\050'
c_text "$IMG" 43 'NO NAME    '
