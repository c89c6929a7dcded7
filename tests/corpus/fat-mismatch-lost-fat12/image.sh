# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a --trim cut between the FAT copies when freeing: the last copy still
# holds a lost chain of 2 clusters that the active copy has freed
c_mkfs "$IMG" 12
c_populate "$IMG"
c_sp=$(c_spare "$IMG" 50)
c_setfat "$IMG" "$c_sp" $((c_sp + 1)) 1
c_setfat "$IMG" $((c_sp + 1)) "$(c_eoc "$IMG")" 1
