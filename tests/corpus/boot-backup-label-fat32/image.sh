# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a label change cut between sector 0 and the backup boot sector: the
# root's label entry and sector 0 say NEWLABEL, the backup still OLDLABEL
c_mkfs "$IMG" 32 -n OLDLABEL
c_populate "$IMG"
run mlabel -i "$IMG" ::NEWLABEL
c_text "$IMG" $(($(le "$IMG" 50 2) * $(le "$IMG" 11 2) + 71)) 'OLDLABEL   '
