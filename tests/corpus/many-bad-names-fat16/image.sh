# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# 60 bad names: 50 findings kept, 10 dropped
c_mkfs "$IMG" 16
c_populate "$IMG"
mkdir "$T/many" || hard_error mkdir
c_k=100
while [ "$c_k" -lt 160 ]; do
	: >"$T/many/F$c_k.TXT"
	c_k=$((c_k + 1))
done
run mcopy -i "$IMG" "$T"/many/F*.TXT ::
rm -rf "$T/many"
dir_entries "$IMG" :: | awk -v h="$(printf 'F' | od -An -tx1 | tr -d ' ')" \
	'substr($2, 1, 2) == h { print $1 }' >"$T/c.many"
[ "$(wc -l <"$T/c.many")" -eq 60 ] || hard_error "not 60 entries"
while read -r c_k; do
	c_text "$IMG" "$(c_dir_off "$IMG" :: "$c_k")" 'f'
done <"$T/c.many"
