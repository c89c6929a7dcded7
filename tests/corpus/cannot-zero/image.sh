# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# 1 MiB of zero bytes: no boot sector at all
rm -f "$IMG"
run dd if=/dev/zero of="$IMG" bs=1024 count=1024
