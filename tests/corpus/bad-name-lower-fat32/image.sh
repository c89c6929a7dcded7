# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a lower-case short name, in a subdirectory
c_mkfs "$IMG" 32
c_populate "$IMG"
c_file "$IMG" ::DIR1/LOWER.TXT 10
c_rename "$IMG" ::DIR1 "LOWER   TXT" 'lower   TXT'
