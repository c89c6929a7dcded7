# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# A short name that starts with 0x05 (stands for 0xE5) is valid.
c_mkfs "$IMG" 16
c_file "$IMG" ::XE5NAME.TXT 10
c_text "$IMG" "$(c_entry "$IMG" :: "XE5NAME TXT")" '\005'
