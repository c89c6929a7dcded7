# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the boot sector's label differs from the root directory's (dosfstools'
# check-label-different): fsck.fat copies the root's over it
c_mkfs "$IMG" 12 -n LABEL1
c_populate "$IMG"
c_text "$IMG" 43 'label2     '
