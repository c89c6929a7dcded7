# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a short name with a dot in the base name
c_mkfs "$IMG" 32
c_populate "$IMG"
c_file "$IMG" ::DOT.TXT 10
c_rename "$IMG" :: "DOT     TXT" 'D.T     TXT'
