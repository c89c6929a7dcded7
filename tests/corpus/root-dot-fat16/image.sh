# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a "." entry in the root (an empty file's entry renamed, cluster 0): the
# root has no dot entries; Linux lists it beside the "." it makes up, and
# fsck.fat drops it
c_mkfs "$IMG" 16
c_populate "$IMG"
c_file "$IMG" ::DOT.TXT 0
c_text "$IMG" "$(c_entry "$IMG" :: "DOT     TXT")" '.          \020'
