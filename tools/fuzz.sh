#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# Build the libFuzzer targets with clang, ASan and UBSan, seed them with
# small mkfs.fat images, and run each for SECONDS (default 55: five
# targets in under 5 minutes).  Prints each target's executions and
# executions per second.  Exits non-zero on any finding; crash inputs are
# left in build-fuzz/findings.
# Usage: tools/fuzz.sh [SECONDS]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-55}
targets="open verify plan name commit"
sh "$top/tools/deps.sh"
missing=
for p in clang libclang-rt-14-dev; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y $missing
fi
cd "$top"
[ -x configure ] && [ -f tests/corpus/list.am ] || ./bootstrap >/dev/null
mkdir -p build-fuzz
cd build-fuzz
san='-fsanitize=address,undefined -fno-sanitize-recover=all'
"$top/configure" --enable-fuzzing CC=clang \
	CFLAGS="-g -O1 -fsanitize=fuzzer-no-link $san" LDFLAGS="$san" \
	>/dev/null
progs=
for t in $targets; do progs="$progs tests/fuzz/fuzz_$t"; done
# shellcheck disable=SC2086
make -j"$(nproc)" src/lib/libfp.a $progs >/dev/null

# An image input (tests/fuzz/fuzz_img.h): PREFIX (hex), the image length
# as 4 little-endian bytes, then the image up to its last nonzero byte.
pack() {
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
out = bytes.fromhex(sys.argv[3]) + len(d).to_bytes(4, "little")
open(sys.argv[2], "wb").write(out + d.rstrip(b"\0"))
' "$@"
}

# Seeds: small volumes of each FAT type with files, names and directories.
rm -rf seeds findings
mkdir -p seeds/img seeds/plan seeds/name findings
export MTOOLS_SKIP_CHECK=1
i=0
for spec in "12 64" "12 160 -s 2" "16 2200 -s 1" "12 256 -S 4096 -s 1"; do
	# shellcheck disable=SC2086
	set -- $spec
	img=seeds/s$i.img
	bits=$1 kib=$2
	shift 2
	mkfs.fat -C --invariant -F "$bits" "$@" "$img" "$kib" >/dev/null
	mmd -i "$img" ::dir
	echo data >seed.txt
	mcopy -i "$img" seed.txt "::A long name.txt"
	mcopy -i "$img" seed.txt ::dir/short.txt
	pack "$img" seeds/img/s$i ''
	pack "$img" seeds/plan/s$i 00
	pack "$img" seeds/plan/o$i 1f
	pack "$img" seeds/plan/p$i 38
	rm -f "$img"
	i=$((i + 1))
done
# Label seeds (label-mismatch, bad-label): FAT12 and FAT16 volumes made
# with -n LABEL1, then BS_VolLab and the root's first entry (the label
# mkfs.fat put there) rewritten: different, only in the boot sector,
# only in the root, invalid in both, spaces in the boot sector alone.
# relabel IMG BOOT ROOT: ROOT '-' deletes the root's label entry.
relabel() {
	python3 -c '
import struct, sys
path, boot, root = sys.argv[1:4]
with open(path, "r+b") as f:
    b = f.read(512)
    bps, rsv, fsz = (struct.unpack_from("<H", b, o)[0] for o in (11, 14, 22))
    f.seek(43)
    f.write(boot.encode("latin-1").ljust(11))
    f.seek((rsv + b[16] * fsz) * bps)
    f.write(b"\xe5" if root == "-" else root.encode("latin-1").ljust(11))
' "$@"
}
for spec in "12 64" "16 2200 -s 1"; do
	# shellcheck disable=SC2086
	set -- $spec
	bits=$1 kib=$2
	shift 2
	j=0
	for labels in "label2|LABEL1" "LABEL1|-" "NO NAME|LABEL1" \
		"LA?EL1|LA?EL1" "|-"; do
		img=seeds/l$bits-$j.img
		mkfs.fat -C --invariant -F "$bits" -n LABEL1 "$@" "$img" \
			"$kib" >/dev/null
		relabel "$img" "${labels%|*}" "${labels#*|}"
		pack "$img" "seeds/img/l$bits-$j" ''
		pack "$img" "seeds/plan/l$bits-$j" 00
		rm -f "$img"
		j=$((j + 1))
	done
done
# Deep trees (tests/img/deep-tree.py): 120 levels of one-letter names on
# FAT12, 60 of 169-letter names (13 long-name slots) on FAT16, for the
# walk's frames and the paths made from them.
for spec in "12 64 120 1" "16 2100 60 169"; do
	# shellcheck disable=SC2086
	set -- $spec
	img=seeds/deep$1.img
	mkfs.fat -C --invariant -F "$1" -s 1 -r 16 "$img" "$2" >/dev/null
	python3 "$top/tests/img/deep-tree.py" "$img" "$3" "$4"
	pack "$img" "seeds/img/deep$1" ''
	pack "$img" "seeds/plan/deep$1" 00
	pack "$img" "seeds/plan/deepp$1" 38
	rm -f "$img"
done
# Partitioned seeds (fuzz_open locates the volume): an MBR with a FAT12
# logical partition, a GPT with a FAT12 partition and no backup header.
SFDISK=$(command -v sfdisk || echo /sbin/sfdisk)
img=seeds/part.img
rm -f "$img"
truncate -s 1M "$img"
printf 'label: dos\nstart=1, size=300, type=5\nstart=2, size=250, type=1\nstart=301, size=100, type=83\n' |
	"$SFDISK" -q "$img"
mkfs.fat --invariant -F 12 --offset 2 "$img" 125 >/dev/null 2>&1
pack "$img" seeds/img/mbr ''
rm -f "$img"
truncate -s 1M "$img"
printf 'label: gpt\nstart=34, size=1000, type=EBD0A0A2-B9E5-4433-87C0-68B6B72699C7\n' |
	"$SFDISK" -q "$img"
mkfs.fat --invariant -F 12 --offset 34 "$img" 500 >/dev/null 2>&1
dd if=/dev/zero of="$img" bs=512 seek=2015 count=33 conv=notrunc status=none
pack "$img" seeds/img/gpt ''
rm -f "$img"
# fuzz_commit: the plan seeds, and inputs it found (tests/fuzz/*.in.gz).
mkdir -p seeds/commit
cp seeds/plan/* seeds/commit/
for f in "$top"/tests/fuzz/commit-*.in.gz; do
	[ -f "$f" ] && gzip -dc "$f" >"seeds/commit/$(basename "$f" .gz)"
done
printf 'readme.txt' >seeds/name/a
printf 'A long name \303\251 \346\227\245\346\234\254.tar.gz' >seeds/name/b

total=0
for t in $targets; do
	case $t in
	name) corpus=seeds/name max=1024 ;;
	plan) corpus=seeds/plan max=65536 ;;
	commit) corpus=seeds/commit max=65536 ;;
	*) corpus=seeds/img max=65536 ;;
	esac
	echo "fuzz_$t: $secs s"
	"./tests/fuzz/fuzz_$t" -max_total_time="$secs" -max_len=$max \
		-rss_limit_mb=4096 -artifact_prefix="findings/$t-" \
		-print_final_stats=1 "$corpus" 2>"fuzz_$t.log" || {
		tail -n 40 "fuzz_$t.log"
		echo "fuzz_$t: finding, see build-fuzz/findings" >&2
		exit 1
	}
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "fuzz_$t.log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "fuzz_$t.log")
	echo "fuzz_$t: $runs executions, $rate a second, no finding"
	total=$((total + ${runs:-0}))
done
echo "fuzzing: $total executions in all, no finding"
