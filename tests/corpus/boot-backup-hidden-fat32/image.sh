# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# what a partitioning tool does when it moves the partition: BPB_HiddSec
# (bytes 28-31) of sector 0 rewritten to the new start, 2048, not that of
# the backup boot sector
c_mkfs "$IMG" 32
c_populate "$IMG"
c_put "$IMG" 28 4 2048
