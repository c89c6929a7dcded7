# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# made by fatprealloc -n itself (new and existing files)
c_mkfs "$IMG" 16
c_populate "$IMG"
echo "+ fatprealloc -q -n $IMG ::NEW.BIN 10000 ::ONE.BIN 5000 ::DIR1/N2.BIN 3000"
"$FATPREALLOC" -q -n "$IMG" ::NEW.BIN 10000 ::ONE.BIN 5000 \
	::DIR1/N2.BIN 3000 || hard_error "fatprealloc -n failed"
