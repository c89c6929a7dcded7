# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a short name with '+', in a subdirectory
c_mkfs "$IMG" 16
c_populate "$IMG"
c_file "$IMG" ::DIR1/PLUS.TXT 10
c_rename "$IMG" ::DIR1 "PLUS    TXT" 'PL+S    TXT'
