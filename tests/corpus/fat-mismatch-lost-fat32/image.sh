# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a run cut between the FAT copies when linking: the active copy grows
# DIR1 by a new (empty) cluster, the last copy still ends DIR1 before it
c_mkfs "$IMG" 32
c_populate "$IMG"
c_d=$(c_first "$IMG" ::DIR1)
[ "$(c_chain "$IMG" "$c_d" | wc -l)" -eq 1 ] || hard_error "DIR1 is not 1 cluster"
c_sp=$(c_spare "$IMG" 50)
# its zeros written as data, as the run writes them (no hole)
dd if=/dev/zero of="$IMG" bs=512 count=$((G_CLUS / 512)) conv=notrunc \
	seek=$(($(c_clus_off "$IMG" "$c_sp") / 512)) 2>/dev/null ||
	hard_error "dd failed"
c_setfat "$IMG" "$c_sp" "$(c_eoc "$IMG")"
c_setfat "$IMG" "$c_d" "$c_sp" 0
c_fsinfo_fix "$IMG"
