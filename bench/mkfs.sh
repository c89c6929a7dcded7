#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# bench/mkfs.sh - time fatprealloc --mkfs (issue 31) against mkfs.fat and
# mkfs.fat + mcopy -s on two workloads, with the peak RSS of each:
#   empty   an empty FAT32 of 2 TiB - 1 MiB (2^32 - 2048 sectors of 512
#           bytes, the most a FAT32 boot sector counts, rounded to 1 MiB)
#           in a new sparse file, 32 KiB clusters: fatprealloc --mkfs
#           --size against mkfs.fat -C -F 32 -s 64
#   small   20,000 files of 100 bytes in 20 directories of 1,000 into a
#           new 256 MiB FAT32: fatprealloc --mkfs --fat 32 --size 256M
#           IMG TREE ::/ against mkfs.fat -C -F 32 then mcopy -s
# Each command runs on no image at all (the file is removed first) and is
# checked afterwards: fsck.fat -n clean, and for small mdir lists 20,000
# files.  Not run by CI.
#
# Needs (Debian packages): bash (>= 5 for $EPOCHREALTIME), coreutils,
# dosfstools, mtools, time (/usr/bin/time, for the peak RSS).
#
# Usage: bench/mkfs.sh [REPS]   (default 3; the table has medians)
# Environment: FATPREALLOC (default build/src/fatprealloc), BENCH_DIR
# (default $TMPDIR or /tmp; a directory is made inside it and removed).
set -u
export LC_ALL=C MTOOLS_SKIP_CHECK=1 PATH=$PATH:/usr/sbin:/sbin

REPS=${1:-3}
FP=${FATPREALLOC:-build/src/fatprealloc}
for t in "$FP" mkfs.fat fsck.fat mcopy mdir /usr/bin/time; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "mkfs.sh: $t not found" >&2
		exit 77
	}
done
W=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/fpmkfs.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT INT TERM

die() {
	echo "mkfs.sh: $*" >&2
	exit 1
}

# timed OUT CMD...: one run of CMD, "wall_ms cpu_ms rss_kib" appended to
# OUT.
timed() {
	local out=$1 t0 t1
	shift
	sync
	t0=$EPOCHREALTIME
	/usr/bin/time -f '%U %S %M' -o "$W/time.out" "$@" >"$W/cmd.out" \
		2>&1 || { cat "$W/cmd.out" >&2; die "failed: $*"; }
	t1=$EPOCHREALTIME
	awk -v a="$t0" -v b="$t1" '{ printf "%d %d %d\n", (b - a) * 1000,
		($1 + $2) * 1000, $3 }' "$W/time.out" >>"$out"
}

# median FILE COLUMN
median() {
	sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c }
		END { print v[int((NR + 1) / 2)] }'
}

row() {
	printf '| %s | %s | %d | %d | %d |\n' "$1" "$2" "$(median "$3" 1)" \
		"$(median "$3" 2)" "$(median "$3" 3)"
}

clean() {
	fsck.fat -n "$1" >"$W/fsck.out" 2>&1 ||
		{ cat "$W/fsck.out" >&2; die "fsck.fat -n: $1"; }
}

kib=$((2 * 1024 * 1024 * 1024 - 1024))
for i in $(seq "$REPS"); do
	rm -f "$W/e.img"
	timed "$W/t.e.fp" "$FP" --mkfs --size "${kib}K" "$W/e.img"
	clean "$W/e.img"
	rm -f "$W/e.img"
	timed "$W/t.e.mk" mkfs.fat -C -F 32 -s 64 "$W/e.img" "$kib"
	clean "$W/e.img"
done
rm -f "$W/e.img"

for d in $(seq -w 0 19); do
	mkdir -p "$W/src/dir$d" || die "mkdir"
	for f in $(seq -w 0 999); do
		printf '%0100d' "$((10#$f))" >"$W/src/dir$d/file$f.txt"
	done
done
for i in $(seq "$REPS"); do
	rm -f "$W/s.img"
	timed "$W/t.s.fp" "$FP" --mkfs --fat 32 --size 256M "$W/s.img" \
		"$W/src" ::/
	clean "$W/s.img"
	n=$(mdir -/ -b -i "$W/s.img" :: | grep -c 'txt$')
	[ "$n" = 20000 ] || die "--mkfs left $n files"
	rm -f "$W/s.img"
	timed "$W/t.s.mk" sh -c 'mkfs.fat -C -F 32 "$1" 262144 &&
		mcopy -s -i "$1" "$2"/* ::/' sh "$W/s.img" "$W/src"
	clean "$W/s.img"
	n=$(mdir -/ -b -i "$W/s.img" :: | grep -c 'txt$')
	[ "$n" = 20000 ] || die "mcopy -s left $n files"
done

echo "| workload | command | wall ms | cpu ms | peak RSS KiB |"
echo "|---|---|---|---|---|"
row "empty 2 TiB" "fatprealloc --mkfs" "$W/t.e.fp"
row "empty 2 TiB" "mkfs.fat -C" "$W/t.e.mk"
row "20,000 files" "fatprealloc --mkfs" "$W/t.s.fp"
row "20,000 files" "mkfs.fat -C + mcopy -s" "$W/t.s.mk"
