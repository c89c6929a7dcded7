# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# the FSInfo free count 7 too high
c_mkfs "$IMG" 32
c_populate "$IMG"
c_geom "$IMG"
c_o=$(($(le "$IMG" 48 2) * G_BPS + 488))
c_put "$IMG" "$c_o" 4 $(($(le "$IMG" "$c_o" 4) + 7))
