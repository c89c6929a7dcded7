# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a 2-cluster file whose chain links on to a free cluster
c_mkfs "$IMG" 12
c_populate "$IMG"
c_link_on "$IMG" ::FREE.BIN
c_setfat "$IMG" "$c_last" "$c_next"
