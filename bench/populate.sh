#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# bench/populate.sh - time copies into FAT32 images (issue 17) against
# mcopy -s, genimage's way and the floor.
#
# Needs (Debian packages): bash (>= 5 for $EPOCHREALTIME), coreutils,
# dosfstools (mkfs.fat, fsck.fat), mtools (mcopy, mmd), time
# (/usr/bin/time, for peak RSS; "-" without it).
#
# Usage: bench/populate.sh [OPTIONS]
#   --reps N         repetitions of each timed command (default 3)
#   --genimage-max N genimage's way on at most N files of a workload
#                    (default 1000: one mcopy process per file is slow on
#                    many names; the row says how many it did)
#   --only W         only workload W: boot, large or names
#   --no-mcopy       skip mcopy -s and genimage's way
#   --mkfs           also make the image in the timing: fatprealloc --mkfs
#                    (issue 31) against mkfs.fat + mcopy -s, both from no
#                    image at all, FAT32 of the workload's size
#   --mcopy-names    also mcopy -s on the names workload (the issue saw
#                    5,000 long names in one directory not finish in 13
#                    minutes; skipped by default)
#   -h, --help       this text
#
# Environment: FATPREALLOC (default build/src/fatprealloc, then PATH),
# BENCH_DIR (default $TMPDIR or /tmp, then fppopulate.XXXXXX inside it,
# removed at exit; the trees, images and the floor's file are all there, on
# one host filesystem).  BENCH_DIR=/dev/shm (tmpfs) times the tools without
# writeback: on a disk filesystem the large workload's 2 GiB pass the
# kernel's dirty limits, and each command then pays for whatever earlier
# data is still being written back.
#
# The workloads (the issue's): boot, a 256 MiB image and about 1,000
# files, 83 MiB in 20 directories (a 30 MiB kernel, two 20 MiB blobs,
# 200 x 50 KiB device trees, 800 x 4 KiB texts); large, 2 GiB in 8
# files on a 3 GiB image; names, 20,000 files of a few bytes with long
# names, 5,000 per directory, on a 256 MiB image.  Each repetition gets a
# fresh copy of the image made by mkfs.fat outside the timing.  The
# floor is cat of every source byte into one file on the same host
# filesystem.  fatprealloc runs with --no-sync (neither mcopy nor cat
# syncs).  Times are wall-clock milliseconds, medians; RSS is the peak of
# the median-time repetition's process in KiB (for genimage's way, the
# largest of its mcopy processes).  The page cache is not dropped: the
# sources are cached after the first repetition, for every tool alike.
set -u
export LC_ALL=C MTOOLS_SKIP_CHECK=1 PATH=$PATH:/usr/sbin:/sbin

REPS=3 GEN_MAX=1000 ONLY= DO_MCOPY=1 MCOPY_NAMES=0 DO_MKFS=0
while [ $# -gt 0 ]; do
	case $1 in
	--reps) REPS=${2:?}; shift ;;
	--genimage-max) GEN_MAX=${2:?}; shift ;;
	--only) ONLY=${2:?}; shift ;;
	--no-mcopy) DO_MCOPY=0 ;;
	--mcopy-names) MCOPY_NAMES=1 ;;
	--mkfs) DO_MKFS=1 ;;
	-h|--help) sed -n '/^# Usage:/,/^# Environment:/p' "$0" |
		sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "populate: unknown option '$1'" >&2; exit 16 ;;
	esac
	shift
done

top=$(cd "$(dirname "$0")/.." && pwd)
FP=${FATPREALLOC:-$top/build/src/fatprealloc}
[ -x "$FP" ] || FP=$(command -v fatprealloc) || {
	echo "populate: no fatprealloc (build it first)" >&2; exit 99; }
for t in mkfs.fat fsck.fat mcopy mmd; do
	command -v "$t" >/dev/null || { echo "populate: no $t" >&2; exit 77; }
done
TIME=/usr/bin/time
[ -x "$TIME" ] || TIME=
W=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/fppopulate.XXXXXX") || exit 99
trap 'rm -rf "$W"' EXIT

now_ms() {
	local t=${EPOCHREALTIME/./}
	echo $((t / 1000))
}

# fill FILE BYTES: BYTES of pseudo-random data (not zeros: no holes)
fill() {
	head -c "$2" /dev/urandom >"$1"
}

make_boot() {
	local d=$1 i j n=0
	mkdir -p "$d"
	for i in $(seq -w 1 20); do
		mkdir -p "$d/dir$i"
	done
	fill "$d/dir01/Image" $((30 * 1024 * 1024))
	fill "$d/dir02/initrd.img" $((20 * 1024 * 1024))
	fill "$d/dir03/firmware.bin" $((20 * 1024 * 1024))
	fill "$W/dtb" $((50 * 1024))
	fill "$W/txt" 4096
	for i in $(seq -w 1 200); do
		j=$(printf '%02d' $((n % 20 + 1)))
		cp "$W/dtb" "$d/dir$j/board-$i.dtb"
		n=$((n + 1))
	done
	for i in $(seq -w 1 800); do
		j=$(printf '%02d' $((n % 20 + 1)))
		cp "$W/txt" "$d/dir$j/config-$i.txt"
		n=$((n + 1))
	done
}

make_large() {
	local d=$1 i
	mkdir -p "$d"
	for i in 1 2 3 4 5 6 7 8; do
		fill "$d/part$i.bin" $((256 * 1024 * 1024))
	done
}

make_names() {
	local d=$1 i j
	mkdir -p "$d"
	for j in 1 2 3 4; do
		mkdir -p "$d/Directory number $j"
		(cd "$d/Directory number $j" &&
		 for i in $(seq -w 1 5000); do
			printf 'f%s\n' "$i" >"A long file name, number $i.txt"
		 done)
	done
}

# timed OUT CMD...: run CMD, append "ms rss" to OUT
timed() {
	local out=$1 t0 t1 rss=-
	shift
	# no dirty pages of an earlier command: each pays for its own
	# writeback throttling only (2 GiB is past the dirty limits)
	sync
	t0=$(now_ms)
	if [ -n "$TIME" ]; then
		"$TIME" -f %M -o "$W/rss" "$@" >/dev/null 2>"$W/err" ||
			{ cat "$W/err" >&2; echo "populate: failed: $*" >&2; exit 1; }
		rss=$(tail -n 1 "$W/rss")
	else
		"$@" >/dev/null 2>"$W/err" ||
			{ cat "$W/err" >&2; echo "populate: failed: $*" >&2; exit 1; }
	fi
	t1=$(now_ms)
	echo "$((t1 - t0)) $rss" >>"$out"
}

# median OUT: "ms rss" of the median repetition
median() {
	sort -n "$1" | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }'
}

# genimage's way: mmd for each directory, then one mcopy per file
genimage_way() {
	local img=$1 src=$2 max=$3 n=0 f rel peak=0 r
	while IFS= read -r f; do
		rel=${f#"$src"}
		if [ -d "$f" ]; then
			mmd -i "$img" "::$rel" || return 1
			continue
		fi
		[ "$n" -lt "$max" ] || continue
		if [ -n "$TIME" ]; then
			"$TIME" -f %M -o "$W/rss1" mcopy -i "$img" "$f" "::$rel" ||
				return 1
			r=$(tail -n 1 "$W/rss1")
			[ "$r" -gt "$peak" ] && peak=$r
		else
			mcopy -i "$img" "$f" "::$rel" || return 1
		fi
		n=$((n + 1))
	done < <(find "$src" -mindepth 1 | sort)
	echo "$peak" >"$W/gen.rss"
	echo "$n" >"$W/gen.count"
}

row() {
	printf '%-9s %-22s %9s ms %9s KiB  %s\n' "$1" "$2" "$3" "$4" "${5:-}"
}

# The image made in the timing too: --mkfs against mkfs.fat + mcopy -s.
bench_mkfs() {
	local name=$1 kib=$2 src=$3 rep m
	for rep in $(seq "$REPS"); do
		rm -f "$W/k.img"
		timed "$W/t.mkfs" "$FP" --mkfs --fat 32 --size "${kib}K" \
			--no-sync "$W/k.img" "$src" ::/
		if [ "$DO_MCOPY" = 1 ]; then
			rm -f "$W/km.img"
			timed "$W/t.mkmc" sh -c 'mkfs.fat -C -F 32 --invariant \
				"$1" "$2" && mcopy -s -i "$1" "$3"/* ::/' sh \
				"$W/km.img" "$kib" "$src"
		fi
	done
	fsck.fat -n "$W/k.img" >"$W/fsck" 2>&1 || { cat "$W/fsck"; exit 1; }
	m=$(median "$W/t.mkfs"); row "$name" "fatprealloc --mkfs" $m
	if [ -s "$W/t.mkmc" ]; then
		m=$(median "$W/t.mkmc"); row "$name" "mkfs.fat + mcopy -s" $m
	fi
	rm -f "$W/k.img" "$W/km.img" "$W/t.mkfs" "$W/t.mkmc"
}

bench() {
	local name=$1 kib=$2 src=$W/$1 img=$W/$1.img rep m files bytes
	"make_$name" "$src"
	files=$(find "$src" -type f | wc -l)
	bytes=$(du -sb --apparent-size "$src" | cut -f1)
	echo "== $name: $files files, $((bytes / 1024 / 1024)) MiB, image $((kib / 1024)) MiB"
	mkfs.fat -C -F 32 --invariant "$W/$name.base" "$kib" >/dev/null
	rm -f "$W"/t.*
	for rep in $(seq "$REPS"); do
		cp --sparse=always "$W/$name.base" "$img"; sync -f "$img"
		timed "$W/t.fp" "$FP" --no-sync "$img" "$src" ::/
		rm -f "$W/floor"
		timed "$W/t.floor" sh -c 'find "$1" -type f -exec cat {} + >"$2"' \
			sh "$src" "$W/floor"
		if [ "$DO_MCOPY" = 1 ] &&
			{ [ "$name" != names ] || [ "$MCOPY_NAMES" = 1 ]; }; then
			cp --sparse=always "$W/$name.base" "$W/m.img"
			timed "$W/t.mcopy" mcopy -s -i "$W/m.img" "$src"/* ::/
		fi
	done
	fsck.fat -n "$img" >"$W/fsck" 2>&1 || { cat "$W/fsck"; exit 1; }
	[ "$DO_MKFS" = 1 ] && bench_mkfs "$name" "$kib" "$src"
	m=$(median "$W/t.fp"); row "$name" fatprealloc $m
	m=$(median "$W/t.floor"); row "$name" "floor (cat)" $m
	if [ -s "$W/t.mcopy" ]; then
		m=$(median "$W/t.mcopy"); row "$name" "mcopy -s" $m
	elif [ "$DO_MCOPY" = 1 ]; then
		row "$name" "mcopy -s" - - "(skipped; --mcopy-names runs it)"
	fi
	if [ "$DO_MCOPY" = 1 ]; then
		cp --sparse=always "$W/$name.base" "$W/g.img"
		local t0 t1
		t0=$(now_ms)
		genimage_way "$W/g.img" "$src/" "$GEN_MAX" || exit 1
		t1=$(now_ms)
		row "$name" "mmd + mcopy per file" $((t1 - t0)) "$(cat "$W/gen.rss")" \
			"(once; $(cat "$W/gen.count") of $files files)"
	fi
	rm -rf "$src" "$W"/*.img "$W/$name.base" "$W/floor"
}

echo "fatprealloc: $FP; $REPS repetitions; host fs: $(stat -f -c %T "$W")"
for w in boot:262144 large:3145728 names:262144; do
	[ -z "$ONLY" ] || [ "$ONLY" = "${w%%:*}" ] || continue
	bench "${w%%:*}" "${w#*:}"
done
