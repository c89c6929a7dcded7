# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# relabelled (the old label entry is rewritten), hidden, system and
# read-only entries
c_mkfs "$IMG" 12 -n CORPUS12
c_populate "$IMG"
run mlabel -i "$IMG" ::RELABEL
run mattrib -i "$IMG" +h +s +r ::ONE.BIN
run mattrib -i "$IMG" +h ::DIR1
