# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# an empty file that starts at cluster 1
c_mkfs "$IMG" 16
c_populate "$IMG"
c_empty_with_start "$IMG" ::DIR1/BADST.BIN ::DIR1 "BADST   BIN" 1
