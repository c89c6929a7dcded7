# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a DOS 3.4 style boot sector: extended signature 0x28, the record ends
# after the serial and boot code follows where BS_VolLab and BS_FilSysType
# would be; no label entry in the root.  Not the state --label leaves.
c_mkfs "$IMG" 12
c_populate "$IMG"
c_text "$IMG" 38 '\050'
c_text "$IMG" 43 '\372\063\300\216\320\274\000\174\026\007\273\170\000\066\305\067\036\126\026'
