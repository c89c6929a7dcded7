#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# bench/rm.sh - time the removal of 20,000 files in 4 directories:
# fatprealloc --rm -r of the directories, and a manifest of 20,000
# "rm ::PATH" lines, against mtools' mdeltree and mdel doing the same.
#
# Needs: bash (>= 5 for $EPOCHREALTIME), dosfstools (mkfs.fat, fsck.fat),
# mtools, time (/usr/bin/time).  Usage: bench/rm.sh [REPS] (default 3).  Environment:
# FATPREALLOC (default: build/src/fatprealloc, then PATH), BENCH_DIR
# (default ${TMPDIR:-/tmp}/fpbench-rm, removed at exit).
set -u
export LC_ALL=C MTOOLS_SKIP_CHECK=1 PATH=$PATH:/usr/sbin:/sbin

REPS=${1:-3}
FILES=20000
DIRS=4
FP=${FATPREALLOC:-}
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$FP" ]; then
	FP=$top/build/src/fatprealloc
	[ -x "$FP" ] || FP=$(command -v fatprealloc)
fi
[ -x "$FP" ] || { echo "bench: no fatprealloc" >&2; exit 99; }
W=${BENCH_DIR:-${TMPDIR:-/tmp}/fpbench-rm}
mkdir -p "$W" || exit 99
trap 'rm -rf "$W"' EXIT

now_ms() {
	local t=${EPOCHREALTIME/./}
	echo $((t / 1000))
}

# The image: FAT32, 256 MiB, 512-byte clusters, FILES files of 100 bytes
# spread over DIRS directories.
base=$W/base.img
mkfs.fat -C --invariant -F 32 -s 1 "$base" 262144 >/dev/null || exit 99
: >"$W/make" || exit 99
: >"$W/rm.list" || exit 99
for ((i = 0; i < FILES; i++)); do
	printf '::/d%d/file%05d.bin 100\n' $((i % DIRS)) "$i" >>"$W/make"
	printf 'rm ::/d%d/file%05d.bin\n' $((i % DIRS)) "$i" >>"$W/rm.list"
done
"$FP" -p -q --no-sync --manifest "$W/make" "$base" || exit 99
dirs=()
for ((d = 0; d < DIRS; d++)); do
	dirs+=("::/d$d")
done

median() {
	sort -n "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# time_it NAME CMD...: median wall and CPU (user + system) ms of REPS
# runs, each on a fresh copy; the result must be fsck.fat -n clean.
time_it() {
	local name=$1 r t0 t1
	shift
	: >"$W/times"
	: >"$W/cpu"
	for ((r = 0; r < REPS; r++)); do
		cp "$base" "$W/x.img" && sync
		t0=$(now_ms)
		/usr/bin/time -f '%U %S' -o "$W/time.out" "$@" >/dev/null 2>&1 ||
			{ echo "bench: $name failed" >&2; exit 1; }
		t1=$(now_ms)
		echo $((t1 - t0)) >>"$W/times"
		awk '{ printf "%d\n", ($1 + $2) * 1000 }' "$W/time.out" >>"$W/cpu"
		fsck.fat -n "$W/x.img" >"$W/fsck.out" 2>&1 ||
			{ cat "$W/fsck.out" >&2; echo "bench: $name: fsck" >&2; }
	done
	printf '%-40s %6d ms wall %6d ms cpu\n' "$name" "$(median "$W/times")" \
		"$(median "$W/cpu")"
}

echo "$FILES files of 100 bytes in $DIRS directories, FAT32 256 MiB," \
	"512-byte clusters; median of $REPS, wall clock"
time_it "fatprealloc --rm -r (4 directories)" \
	"$FP" --rm -r --no-sync "$W/x.img" "${dirs[@]}"
time_it "fatprealloc --manifest ($FILES rm lines)" \
	"$FP" --no-sync --manifest "$W/rm.list" "$W/x.img"
time_it "fatprealloc --rm -r, with fsync" \
	"$FP" --rm -r "$W/x.img" "${dirs[@]}"
time_it "mdeltree (4 directories)" mdeltree -i "$W/x.img" "${dirs[@]}"
time_it "mdel (::/dN/*, 4 patterns)" mdel -i "$W/x.img" \
	"::/d0/*" "::/d1/*" "::/d2/*" "::/d3/*"

# One directory of FILES files: a manifest of FILES lines, each a request
# of its own (rm; attr; mv to a new name in the same directory), which
# the planner checks against the requests before it in O(1) each, and
# the one mtools call that does the same where there is one.
one=$W/one.img
mkfs.fat -C --invariant -F 32 -s 1 "$one" 262144 >/dev/null || exit 99
for ((i = 0; i < FILES; i++)); do
	printf '::/one/file%05d.bin 100\n' "$i"
done >"$W/make1" || exit 99
for ((i = 0; i < FILES; i++)); do
	printf 'rm ::/one/file%05d.bin\n' "$i" >&3
	printf 'attr +h ::/one/file%05d.bin\n' "$i" >&4
	printf 'mv ::/one/file%05d.bin ::/one/r%05d.bin\n' "$i" "$i" >&5
done 3>"$W/rm1.list" 4>"$W/attr1.list" 5>"$W/mv1.list" || exit 99
"$FP" -p -q --no-sync --manifest "$W/make1" "$one" || exit 99
base=$one
echo "$FILES files of 100 bytes in 1 directory, the same image otherwise"
time_it "fatprealloc --manifest ($FILES rm, 1 dir)" \
	"$FP" --no-sync --manifest "$W/rm1.list" "$W/x.img"
time_it "fatprealloc --rm -r (the directory)" \
	"$FP" --rm -r --no-sync "$W/x.img" ::/one
time_it "mdel (::/one/*)" mdel -i "$W/x.img" "::/one/*"
time_it "fatprealloc --manifest ($FILES attr +h)" \
	"$FP" --no-sync --manifest "$W/attr1.list" "$W/x.img"
time_it "mattrib +h (::/one/*)" mattrib -i "$W/x.img" +h "::/one/*"
time_it "fatprealloc --manifest ($FILES mv, 1 dir)" \
	"$FP" --no-sync --manifest "$W/mv1.list" "$W/x.img"
