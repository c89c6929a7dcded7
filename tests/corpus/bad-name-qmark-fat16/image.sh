# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a short name with '?'
c_mkfs "$IMG" 16
c_populate "$IMG"
c_file "$IMG" ::QMARK.TXT 10
c_rename "$IMG" :: "QMARK   TXT" 'Q?ARK   TXT'
