# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# an empty file turned into a second label entry in the root
c_mkfs "$IMG" 12 -n FIRST
c_populate "$IMG"
c_file "$IMG" ::SECOND 0
c_put "$IMG" $(($(c_entry "$IMG" :: "SECOND     ") + 11)) 1 8
