# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a label entry in the root, NO NAME in the boot sector (dosfstools'
# check-label-only-root, Windows XP labelling a mkfs.fat volume):
# fsck.fat copies the root's label to the boot sector
c_mkfs "$IMG" 32
c_populate "$IMG"
run mlabel -i "$IMG" ::LABEL1
# in the boot sector and its backup
for c_s in 0 "$(le "$IMG" 50 2)"; do
	c_text "$IMG" $((c_s * $(le "$IMG" 11 2) + 71)) 'NO NAME    '
done
