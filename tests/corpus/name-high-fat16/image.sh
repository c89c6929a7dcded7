# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a short name with a byte >= 0x80 (valid)
c_mkfs "$IMG" 16
c_populate "$IMG"
c_file "$IMG" ::HIGH.TXT 10
c_rename "$IMG" :: "HIGH    TXT" 'H\231GH   TXT'
