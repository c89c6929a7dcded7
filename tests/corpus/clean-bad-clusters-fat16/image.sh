# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# clusters marked bad, owned by nobody: counted, not a finding
c_mkfs "$IMG" 16
c_populate "$IMG"
c_setfat "$IMG" "$(c_spare "$IMG" 10)" "$(c_bad "$IMG")"
c_setfat "$IMG" "$(c_spare "$IMG" 11)" "$(c_bad "$IMG")"
