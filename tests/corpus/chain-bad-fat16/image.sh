# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a 2-cluster file whose chain links on to a cluster marked bad
c_mkfs "$IMG" 16
c_populate "$IMG"
c_link_on "$IMG" ::DIR1/BAD.BIN
c_setfat "$IMG" "$c_last" "$c_next"
c_setfat "$IMG" "$c_next" "$(c_bad "$IMG")"
