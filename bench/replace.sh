#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# bench/replace.sh - time --replace of a 30 MiB kernel in a 256 MiB FAT32
# boot image (issue 29) against mcopy -o and the floor, then replace a
# 30 MiB file 50 times in a 64 MiB volume and count its runs each time,
# then print the peak RSS of edits: that --replace, --rm -r of 20,000
# files and --mv (issue 29: at most 64 MiB).
#
# Needs (Debian packages): bash (>= 5 for $EPOCHREALTIME), coreutils,
# dosfstools (mkfs.fat, fsck.fat), mtools (mcopy), jq, time (/usr/bin/time,
# for the peak RSS; without it that part is skipped).
#
# Usage: bench/replace.sh [--reps N] [--times N] [--no-rss] [--whole-fat]
#   --reps N    repetitions of each timed command (default 5)
#   --times N   replaces of the 64 MiB part (default 50)
#   --no-rss    skip the peak RSS of edits
#   --whole-fat make the 256 MiB image by truncate + mkfs.fat, which
#               writes the whole FAT as data (default: mkfs.fat -C, whose
#               FAT is mostly holes)
#
# Environment: FATPREALLOC (default build/src/fatprealloc, then PATH),
# BENCH_DIR (default $TMPDIR or /tmp; fpreplace.XXXXXX inside it, removed
# at exit: images, sources and the floor's file share one filesystem).
# Each repetition gets a fresh copy of the image (mkfs.fat, then mcopy of
# the old kernel and a few other files) made outside the timing.  The
# floor is cat of the new kernel's bytes into a file on the same host
# filesystem.  fatprealloc runs with --no-sync (mcopy and cat do not
# sync).  Times are wall-clock milliseconds, medians.
set -u
export LC_ALL=C MTOOLS_SKIP_CHECK=1 PATH=$PATH:/usr/sbin:/sbin

REPS=5 TIMES=50 RSS=1 WHOLE=0
while [ $# -gt 0 ]; do
	case $1 in
	--reps) REPS=${2:?}; shift ;;
	--times) TIMES=${2:?}; shift ;;
	--no-rss) RSS=0 ;;
	--whole-fat) WHOLE=1 ;;
	*) echo "replace: unknown option '$1'" >&2; exit 16 ;;
	esac
	shift
done
FP=${FATPREALLOC:-}
if [ -z "$FP" ]; then
	FP=$(dirname "$0")/../build/src/fatprealloc
	[ -x "$FP" ] || FP=$(command -v fatprealloc)
fi
W=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/fpreplace.XXXXXX") || exit 8
trap 'rm -rf "$W"' EXIT

. "$(dirname "$0")/lib.sh"

head -c $((30 << 20)) /dev/urandom >"$W/old.bin"
head -c $((30 << 20)) /dev/urandom >"$W/new.bin"
for i in 1 2 3 4 5 6 7 8; do head -c 50000 /dev/urandom >"$W/dtb$i"; done
if [ "$WHOLE" = 1 ]; then
	truncate -s 256M "$W/base.img"
	mkfs.fat --invariant -F 32 "$W/base.img" >/dev/null
else
	mkfs.fat -C --invariant -F 32 "$W/base.img" $((256 << 10)) >/dev/null
fi
mcopy -i "$W/base.img" "$W/old.bin" ::/kernel.img
for i in 1 2 3 4 5 6 7 8; do mcopy -i "$W/base.img" "$W/dtb$i" ::/; done

# time_it NAME CMD...: REPS fresh runs of CMD on $W/t.img; median ms.
time_it() {
	n=$1
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

fpt=$(time_it fatprealloc "$FP" --replace --no-sync "$W/t.img" \
	"$W/new.bin" ::/kernel.img)
mct=$(time_it "mcopy -o" mcopy -o -i "$W/t.img" "$W/new.bin" ::/kernel.img)
flt=$(time_it floor sh -c 'cat "$1" >"$2"' sh "$W/new.bin" "$W/floor.bin")
cp "$W/base.img" "$W/t.img"
"$FP" --replace "$W/t.img" "$W/new.bin" ::/kernel.img >/dev/null
fsck.fat -n "$W/t.img" >/dev/null || echo "fsck.fat -n: not clean" >&2
mtype -i "$W/t.img" ::/kernel.img | cmp -s - "$W/new.bin" ||
	echo "mtype does not read the new kernel" >&2
echo "replace 30 MiB in 256 MiB (median of $REPS, ms):"
echo "  fatprealloc --replace $fpt; mcopy -o $mct; floor (cat) $flt;" \
	"ratio to the floor $(awk -v a="$fpt" -v b="$flt" 'BEGIN { printf "%.2f", a / b }')"

# The same 30 MiB file replaced again and again in a 64 MiB volume.
mkfs.fat -C --invariant -F 16 -s 8 "$W/small.img" $((64 << 10)) >/dev/null
worst=1
for i in $(seq "$TIMES"); do
	head -c $((30 << 20)) /dev/urandom >"$W/k"
	"$FP" --replace --no-sync "$W/small.img" "$W/k" ::/kernel.img \
		>/dev/null || { echo "replace $i failed" >&2; exit 8; }
	runs=$("$FP" --map --json "$W/small.img" ::/kernel.img |
		jq '.files[0].extents | length')
	[ "$runs" -gt "$worst" ] && worst=$runs
done
mtype -i "$W/small.img" ::/kernel.img | cmp -s - "$W/k" ||
	echo "mtype does not read the last kernel" >&2
fsck.fat -n "$W/small.img" >/dev/null || echo "fsck.fat -n: not clean" >&2
echo "replace 30 MiB $TIMES times in 64 MiB: at most $worst run(s)"

# Peak RSS (KiB) of one run of each edit, on a fresh copy of its image;
# each result must be fsck.fat -n clean.
[ "$RSS" = 1 ] || exit 0
[ -x /usr/bin/time ] || { echo "peak RSS: no /usr/bin/time, skipped"; exit 0; }
# rss IMG CMD...: CMD on a fresh copy $W/r.img of IMG; prints its peak RSS.
rss() {
	cp "$1" "$W/r.img"
	shift
	/usr/bin/time -f %M -o "$W/rss" "$@" >/dev/null 2>&1 ||
		{ echo "peak RSS: $* failed" >&2; exit 8; }
	fsck.fat -n "$W/r.img" >/dev/null || echo "fsck.fat -n: not clean" >&2
	tail -n 1 "$W/rss"
}
# 20,000 files of 100 bytes in 4 directories of a 256 MiB FAT32 image
# with 512-byte clusters, as bench/rm.sh makes them.
mkfs.fat -C --invariant -F 32 -s 1 "$W/many.img" $((256 << 10)) >/dev/null
for ((i = 0; i < 20000; i++)); do
	printf '::/d%d/file%05d.bin 100\n' $((i % 4)) "$i"
done >"$W/make"
"$FP" -p -q --no-sync --manifest "$W/make" "$W/many.img" ||
	{ echo "the 20,000 files failed" >&2; exit 8; }
rp=$(rss "$W/base.img" "$FP" --replace --no-sync "$W/r.img" "$W/new.bin" \
	::/kernel.img)
rr=$(rss "$W/many.img" "$FP" --rm -r --no-sync "$W/r.img" ::/d0 ::/d1 \
	::/d2 ::/d3)
mf=$(rss "$W/base.img" "$FP" --mv --no-sync "$W/r.img" ::/kernel.img \
	::/vmlinuz)
md=$(rss "$W/many.img" "$FP" --mv --no-sync "$W/r.img" ::/d0 ::/d1/d0)
echo "peak RSS of edits (KiB, one run each):"
echo "  --replace of the 30 MiB kernel $rp; --rm -r of 20,000 files $rr;"
echo "  --mv of the kernel $mf; --mv of a directory of 5,000 files $md"
