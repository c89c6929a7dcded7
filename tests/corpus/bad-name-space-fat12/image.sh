# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a short name that starts with a space
c_mkfs "$IMG" 12
c_populate "$IMG"
c_file "$IMG" ::SPACE.TXT 10
c_rename "$IMG" :: "SPACE   TXT" ' PACE   TXT'
