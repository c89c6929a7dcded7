# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# --label OLDLABEL to NEWLABEL cut after its first write (docs/DESIGN.md
# "Labels"): sector 0 has BS_VolLab NEWLABEL behind signature 0x28, the
# root's label entry still says OLDLABEL
c_mkfs "$IMG" 16 -n OLDLABEL
c_populate "$IMG"
c_text "$IMG" 38 '\050'
c_text "$IMG" 43 'NEWLABEL   '
