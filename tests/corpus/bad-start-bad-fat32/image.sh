# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# an empty file that starts at a cluster marked bad
c_mkfs "$IMG" 32
c_populate "$IMG"
c_b=$(c_spare "$IMG" 20)
c_setfat "$IMG" "$c_b" "$(c_bad "$IMG")"
c_fsinfo_fix "$IMG"
c_empty_with_start "$IMG" ::DIR1/BADST.BIN ::DIR1 "BADST   BIN" "$c_b"
