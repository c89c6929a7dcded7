# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a volume label entry in a subdirectory
c_mkfs "$IMG" 32
c_populate "$IMG"
c_file "$IMG" ::DIR1/INNERLBL 0
c_put "$IMG" $(($(c_entry "$IMG" ::DIR1 "INNERLBL   ") + 11)) 1 8
