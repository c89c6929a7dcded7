# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# two short entries with the same name
c_mkfs "$IMG" 16
c_populate "$IMG"
c_file "$IMG" ::DUP.TXT 10
c_file "$IMG" ::OTHER.TXT 20
c_rename "$IMG" :: "OTHER   TXT" 'DUP     TXT'
