# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a short name with a control character (0x01)
c_mkfs "$IMG" 12
c_populate "$IMG"
c_file "$IMG" ::CTRL.TXT 10
c_rename "$IMG" :: "CTRL    TXT" 'C\001RL   TXT'
