# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the second half cut off
c_mkfs "$T/c.full" 16
c_populate "$T/c.full"
rm -f "$IMG"
run dd if="$T/c.full" of="$IMG" bs=1024 count=4096
