# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a boot sector label of spaces and no label entry (an old mkfs.fat
# without -n, dosfstools' label-fat32_mkdosfs_none): fsck.fat sets it to
# NO NAME
c_mkfs "$IMG" 32
c_populate "$IMG"
# in the boot sector and its backup
for c_s in 0 "$(le "$IMG" 50 2)"; do
	c_text "$IMG" $((c_s * $(le "$IMG" 11 2) + 71)) '           '
done
