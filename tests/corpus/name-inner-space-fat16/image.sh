# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# spaces inside a short name and bytes >= 0x80 are valid
c_mkfs "$IMG" 16
c_populate "$IMG"
c_file "$IMG" ::INNER.TXT 10
c_rename "$IMG" :: "INNER   TXT" 'IN ER   TXT'
