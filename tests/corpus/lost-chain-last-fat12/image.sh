# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the last cluster of the volume, lost (FAT12: an odd cluster, whose entry
# ends the FAT's last used byte)
c_mkfs "$IMG" 12
c_populate "$IMG"
c_geom "$IMG"
[ $((G_MAX % 2)) -eq 1 ] || hard_error "the last cluster is even"
c_setfat "$IMG" "$(c_spare "$IMG" 0)" "$(c_eoc "$IMG")"
