#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# bench/mirror.sh - time --mirror of the 1,000-file boot tree (as
# bench/populate.sh makes it: 83 MiB in 20 directories) into a 256 MiB
# FAT32 image that holds the tree already, after 100 of its files
# changed (issue 29), against mtools doing the same edit and the floor.
#
# Two changes, each of 100 files: "kernel", the 30 MiB kernel, 49 device
# trees and 50 texts rewritten (about 32.7 MiB); "small", 50 device trees
# and 50 texts (about 2.6 MiB).  The peers: mcopy -o of just the changed
# files (one mcopy a directory; it has to be told which files changed),
# and mcopy -s -o of the whole tree (what a user does who is not told).
# The floor is cat of the changed files' bytes into one file on the same
# host filesystem.  fatprealloc runs with --no-sync (mcopy and cat do
# not sync).  Each repetition gets a fresh copy of the image, made
# outside the timing; times are wall-clock milliseconds, medians; the
# peak RSS is GNU time's, of the last repetition, in KiB.
#
# Needs (Debian packages): bash (>= 5), coreutils, dosfstools, mtools,
# time (for the RSS; optional).
#
# Usage: bench/mirror.sh [--reps N]
# Environment: FATPREALLOC (default build/src/fatprealloc, then PATH),
# BENCH_DIR (default $TMPDIR or /tmp).
set -u
export LC_ALL=C MTOOLS_SKIP_CHECK=1 PATH=$PATH:/usr/sbin:/sbin

REPS=5
while [ $# -gt 0 ]; do
	case $1 in
	--reps) REPS=${2:?}; shift ;;
	*) echo "mirror: unknown option '$1'" >&2; exit 16 ;;
	esac
	shift
done
top=$(cd "$(dirname "$0")/.." && pwd)
FP=${FATPREALLOC:-$top/build/src/fatprealloc}
[ -x "$FP" ] || FP=$(command -v fatprealloc) || {
	echo "mirror: no fatprealloc (build it first)" >&2; exit 99; }
TIME=/usr/bin/time
[ -x "$TIME" ] || TIME=
W=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/fpmirror.XXXXXX") || exit 99
trap 'rm -rf "$W"' EXIT

. "$(dirname "$0")/lib.sh"

# The tree of bench/populate.sh's boot workload.
make_boot() {
	local d=$1 i j n=0
	for i in $(seq -w 1 20); do mkdir -p "$d/dir$i"; done
	fill "$d/dir01/Image" $((30 << 20))
	fill "$d/dir02/initrd.img" $((20 << 20))
	fill "$d/dir03/firmware.bin" $((20 << 20))
	for i in $(seq -w 1 200); do
		j=$(printf '%02d' $((n % 20 + 1)))
		fill "$d/dir$j/board-$i.dtb" $((50 << 10))
		n=$((n + 1))
	done
	for i in $(seq -w 1 800); do
		j=$(printf '%02d' $((n % 20 + 1)))
		fill "$d/dir$j/config-$i.txt" 4096
		n=$((n + 1))
	done
}

# change LIST: rewrite the files of LIST (relative paths) in $W/tree.
change() {
	while IFS= read -r f; do
		fill "$W/tree/$f" "$(stat -c %s "$W/tree/$f")"
		touch -d @1700000000 "$W/tree/$f"
	done <"$1"
}

# time_it NAME CMD...: REPS fresh runs of CMD on $W/t.img; median ms.
time_it() {
	local n=$1 r a b
	shift
	for r in $(seq "$REPS"); do
		cp "$W/base.img" "$W/t.img"
		rm -f "$W/floor.bin"
		sync
		a=$(ms)
		"$@" >/dev/null 2>&1 || { echo "$n failed" >&2; exit 8; }
		b=$(ms)
		elapsed "$a" "$b"
	done | median
}

# mcopy_changed LIST: mcopy -o of the files of LIST, one call a directory.
mcopy_changed() {
	local d files
	for d in $(sed 's|/[^/]*$||' "$1" | sort -u); do
		mapfile -t files < <(grep "^$d/" "$1" | sed "s|^|$W/tree/|")
		mcopy -o -i "$W/t.img" "${files[@]}" "::/$d/" || return 1
	done
}

make_boot "$W/tree"
(cd "$W/tree" && find . -name '*.dtb' | sed 's|^\./||' | sort) >"$W/dtbs"
(cd "$W/tree" && find . -name '*.txt' | sed 's|^\./||' | sort) >"$W/txts"
{ echo dir01/Image; head -n 49 "$W/dtbs"; head -n 50 "$W/txts"; } \
	>"$W/kernel.list"
{ sed -n '51,100p' "$W/dtbs"; sed -n '51,100p' "$W/txts"; } >"$W/small.list"

for run in kernel small; do
	list=$W/$run.list
	rm -f "$W/base.img"
	mkfs.fat -C --invariant -F 32 "$W/base.img" $((256 << 10)) >/dev/null
	"$FP" --no-sync --mirror "$W/base.img" "$W/tree" ::/ >/dev/null ||
		{ echo "mirror: the first --mirror failed" >&2; exit 8; }
	change "$list"
	bytes=$(sed "s|^|$W/tree/|" "$list" | tr '\n' '\0' |
		du -cb --files0-from=- | tail -n 1 | cut -f1)
	fpt=$(time_it fatprealloc "$FP" --no-sync --mirror "$W/t.img" \
		"$W/tree" ::/)
	mct=$(time_it "mcopy -o" mcopy_changed "$list")
	mst=$(time_it "mcopy -s -o" sh -c \
		'mcopy -s -o -i "$0" "$1"/* ::/' "$W/t.img" "$W/tree")
	flt=$(time_it floor sh -c 'sed "s|^|$0/|" "$1" | tr "\n" "\0" |
		xargs -0 cat >"$2"' "$W/tree" "$list" "$W/floor.bin")
	rss=
	if [ -n "$TIME" ]; then
		cp "$W/base.img" "$W/t.img"
		rss=$("$TIME" -f %M "$FP" --no-sync --mirror "$W/t.img" \
			"$W/tree" ::/ 2>&1 >/dev/null | tail -n 1)
	fi
	cp "$W/base.img" "$W/t.img"
	"$FP" --mirror "$W/t.img" "$W/tree" ::/ >/dev/null
	fsck.fat -n "$W/t.img" >/dev/null || echo "fsck.fat -n: not clean" >&2
	while IFS= read -r f; do
		mtype -i "$W/t.img" "::/$f" | cmp -s - "$W/tree/$f" ||
			echo "mtype does not read the new $f" >&2
	done <"$list"
	echo "mirror, 100 files changed ($run: $((bytes >> 10)) KiB;" \
		"median of $REPS, ms):"
	echo "  fatprealloc --mirror $fpt${rss:+ (peak RSS $rss KiB)};" \
		"mcopy -o of the changed files $mct; mcopy -s -o of the tree" \
		"$mst; floor (cat) $flt; ratio to the floor" \
		"$(awk -v a="$fpt" -v b="$flt" 'BEGIN { printf "%.2f", a / b }')"
done
