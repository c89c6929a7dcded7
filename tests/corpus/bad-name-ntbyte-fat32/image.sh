# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a long name whose short entry has a ':' and the NT byte 0x21, the EFS
# bits Windows sets on an encrypted file, the long-name checksums made
# right (dosfstools' check-encryption_with_invalid_83): fsck.fat 4.2
# took bit 0x20 for "no 8.3 name" and skips the short name when there is
# a long one, but the byte says nothing about the name; Linux lists the
# long name, or without it T:ST_E~1.PFI, a name Windows cannot open
# (':' starts a stream name)
c_mkfs "$IMG" 32
c_populate "$IMG"
c_file "$IMG" ::test_encrypted.txt.PFILE 4112
c_i=$(c_long_index "$IMG" :: test_encrypted.txt.PFILE)
c_e=$(c_dir_off "$IMG" :: "$c_i")
c_text "$IMG" $((c_e + 1)) ':'
c_text "$IMG" $((c_e + 12)) '\041'
c_sum=0
for c_b in $(od -An -tu1 -v -j "$c_e" -N 11 "$IMG"); do
	c_sum=$(((((c_sum & 1) << 7) + (c_sum >> 1) + c_b) & 255))
done
for c_k in 1 2; do
	c_put "$IMG" $(($(c_dir_off "$IMG" :: $((c_i - c_k))) + 13)) 1 "$c_sum"
done
