# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# FAT32 without a backup boot sector (mkfs.fat -b 0), --label OLDLABEL to
# NEWLABEL cut after its second write: sector 0 has BS_VolLab NEWLABEL
# behind signature 0x28, the root's label entry says NEWLABEL; no backup
# differs to tell (boot-backup-label)
c_mkfs "$IMG" 32 -b 0 -n OLDLABEL
c_populate "$IMG"
run mlabel -i "$IMG" ::NEWLABEL
c_text "$IMG" 66 '\050'
