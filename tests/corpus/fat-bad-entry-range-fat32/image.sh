# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a cluster number beyond the last cluster, likewise
c_mkfs "$IMG" 32
c_populate "$IMG"
c_geom "$IMG"
c_setfat "$IMG" "$(c_spare "$IMG" 100)" $((G_MAX + 1))
c_fsinfo_fix "$IMG"
