# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# an empty file that starts at a free cluster
c_mkfs "$IMG" 12
c_populate "$IMG"
c_empty_with_start "$IMG" ::BADST.BIN :: "BADST   BIN" "$(c_spare "$IMG" 20)"
